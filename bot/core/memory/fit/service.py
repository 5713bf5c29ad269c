"""The personal memory fits' use case: find the learners due a fit, fit each off the event loop,
store the outcome with its date and both log losses, and have the scheduler read it afresh.

It runs in the background (bot/workers/memory_fit.py, the leader's), never on the answer path.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from functools import partial
from typing import TypeVar

from bot.core.clock import Clock
from bot.core.memory.fit.train import MIN_REVIEWS, FitOutcome, fit_learner
from bot.core.memory.scheduling import Memory
from bot.core.model import Learned, MemoryFit, MemoryModel
from bot.core.ports import MemoryFitStore

T = TypeVar("T")
# Runs a blocking function away from the event loop (by default in a worker thread).
RunBlocking = Callable[[Callable[[], T]], Awaitable[T]]
# A learner fitted once is fitted again when their presses in the deck grew by a quarter.
GROWTH = 0.25
# Learners fitted in one child process: its start (about a second, importing the bot) is paid
# once for them all, while a batch's presses stay a few megabytes to hand over.
BATCH = 20
Fit = Callable[[Sequence[Learned]], FitOutcome]


def _in_thread(work: Callable[[], T]) -> Awaitable[T]:
    return asyncio.to_thread(work)


def fit_each(fit: Fit, histories: Sequence[Sequence[Learned]]) -> list[FitOutcome]:
    """Each learner's fit, in order (one call of the blocking runner for a batch)."""
    return [fit(presses) for presses in histories]


class MemoryFitting:
    def __init__(
        self,
        *,
        store: MemoryFitStore,
        memory: Memory,
        clock: Clock,
        min_reviews: int = MIN_REVIEWS,
        growth: float = GROWTH,
        run_blocking: RunBlocking[list[FitOutcome]] = _in_thread,
        fit: Fit = fit_learner,
    ) -> None:
        if min_reviews < 10:
            raise ValueError("a personal fit needs at least 10 reviews")
        self._store, self._memory, self._clock = store, memory, clock
        self.min_reviews, self._growth = min_reviews, growth
        self._run_blocking, self._fit = run_blocking, fit

    def running_in(self, run_blocking: RunBlocking[list[FitOutcome]]) -> MemoryFitting:
        """The same fitting, its fits run by `run_blocking` (the worker's child process)."""
        return MemoryFitting(
            store=self._store,
            memory=self._memory,
            clock=self._clock,
            min_reviews=self.min_reviews,
            growth=self._growth,
            run_blocking=run_blocking,
            fit=self._fit,
        )

    async def fit_due(self) -> list[MemoryFit]:
        """Fit every learner due a fit (enough presses, never fitted or grown since), `BATCH`
        learners to a call of the blocking runner; each outcome is stored, kept parameters or
        not, as its batch ends."""
        due = await self._store.fit_candidates(self.min_reviews, self._growth)
        done: list[MemoryFit] = []
        for start in range(0, len(due), BATCH):
            learners = [(c.user_id, c.deck_id) for c in due[start : start + BATCH]]
            done.extend(await self._fit_batch(learners))
        return done

    async def fit_one(self, user_id: int, deck_id: str) -> MemoryFit:
        """Fit one learner in one deck now and store the outcome."""
        [fitted] = await self._fit_batch([(user_id, deck_id)])
        return fitted

    async def _fit_batch(self, learners: Sequence[tuple[int, str]]) -> list[MemoryFit]:
        histories = [await self._store.presses(user, deck) for user, deck in learners]
        outcomes = await self._run_blocking(partial(fit_each, self._fit, histories))
        return [
            await self._save(user, deck, outcome)
            for (user, deck), outcome in zip(learners, outcomes, strict=True)
        ]

    async def _save(self, user_id: int, deck_id: str, outcome: FitOutcome) -> MemoryFit:
        fitted = MemoryFit(
            user_id=user_id,
            deck_id=deck_id,
            parameters=outcome.parameters,
            reviews=outcome.reviews,
            default_loss=outcome.default_loss,
            fitted_loss=outcome.fitted_loss,
            fitted_at=self._clock.now(),
        )
        await self._store.save_memory_fit(fitted)
        self._memory.refitted(user_id, deck_id)
        return fitted

    async def last_fitted(self) -> datetime | None:
        return await self._store.last_memory_fit()

    async def model_of(self, user_id: int, deck_id: str) -> MemoryModel:
        """The learner's memory model in the deck, for `/me`."""
        return MemoryModel(
            await self._store.memory_fit(user_id, deck_id),
            await self._store.review_count(user_id, deck_id),
            self.min_reviews,
        )
