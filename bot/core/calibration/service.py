"""The item calibration's use case: read a deck's first answers in batches, fit them off the
event loop, store the parameters with the date of the fit.

It runs in the background (bot/workers/calibration.py, the leader's) and on demand
(`python -m bot calibrate`), never on the answer path.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import TypeVar

import numpy as np

from bot.core.calibration.em import Fit, fit
from bot.core.calibration.priors import FitSettings, Priors, chance_of_guessing
from bot.core.calibration.responses import ResponseTable
from bot.core.clock import Clock
from bot.core.model import ItemParameters
from bot.core.ports import CalibrationStore
from content.models import Deck

T = TypeVar("T")
# Runs a blocking function away from the event loop (by default in a worker thread).
RunBlocking = Callable[[Callable[[], T]], Awaitable[T]]
# The chance of guessing a question no longer in its deck file: taken as four options, one right.
UNKNOWN_CHANCE = 0.25


@dataclass(frozen=True)
class DeckCalibration:
    """One deck's fit: what it was fitted on and every question's parameters."""

    deck_id: str
    learners: int
    answers: int
    items: tuple[ItemParameters, ...]
    iterations: int
    converged: bool
    fitted_at: datetime

    @property
    def fitted(self) -> int:
        """Questions fitted from their answers."""
        return sum(1 for item in self.items if not item.prior_only)

    @property
    def prior_only(self) -> int:
        """Questions with too few answers, left on the priors."""
        return sum(1 for item in self.items if item.prior_only)


def _in_thread(work: Callable[[], T]) -> Awaitable[T]:
    return asyncio.to_thread(work)


def deck_chances(deck: Deck) -> dict[str, float]:
    """Each question's chance of a blind guess being right, from its options."""
    return {q.id: chance_of_guessing(len(q.options), q.picks) for q in deck.questions}


class Calibration:
    """Fits and stores the item parameters of each deck with answers or a file."""

    def __init__(
        self,
        *,
        store: CalibrationStore,
        decks: Mapping[str, Deck],
        clock: Clock,
        priors: Priors | None = None,
        settings: FitSettings | None = None,
        run_blocking: RunBlocking[Fit] = _in_thread,
    ) -> None:
        self._store, self._clock = store, clock
        self._chances = {deck_id: deck_chances(deck) for deck_id, deck in decks.items()}
        self._priors = priors or Priors()
        self._settings = settings or FitSettings()
        self._run_blocking = run_blocking
        self._lock = asyncio.Lock()

    async def deck_ids(self) -> list[str]:
        """Every deck with a file or with logged answers, sorted."""
        return sorted(set(self._chances) | set(await self._store.calibration_decks()))

    async def calibrate(self, deck_id: str | None = None) -> list[DeckCalibration]:
        """Fit and store the one deck asked for (none when it has neither a file nor
        answers), or every deck. One fit at a time in this process."""
        known = await self.deck_ids()
        chosen = known if deck_id is None else [d for d in known if d == deck_id]
        async with self._lock:
            return [await self._deck(one) for one in chosen]

    async def _deck(self, deck_id: str) -> DeckCalibration:
        chances = self._chances.get(deck_id, {})
        table = ResponseTable(chances)
        async for batch in self._store.first_results(deck_id):
            table.add(batch)
        responses = table.responses()
        chance = [chances.get(q, UNKNOWN_CHANCE) for q in table.question_ids]
        # A partial of module-level names: it can also be sent to another process.
        work = partial(fit, responses, np.asarray(chance), self._priors, self._settings)
        counts = np.bincount(responses.items, minlength=responses.n_items)
        # Nothing to fit (every question on its priors) takes no time: no thread or process.
        fittable = bool((counts >= self._settings.min_answers).any())
        found = await self._run_blocking(work) if fittable else work()
        now = self._clock.now()
        items = tuple(
            ItemParameters(
                deck_id=deck_id,
                question_id=question_id,
                difficulty=float(found.difficulty[j]),
                discrimination=float(found.discrimination[j]),
                guessing=float(found.guessing[j]),
                answers=int(found.answers[j]),
                prior_only=bool(found.prior_only[j]),
                fitted_at=now,
            )
            for j, question_id in enumerate(table.question_ids)
        )
        await self._store.save_item_parameters(deck_id, items)
        return DeckCalibration(
            deck_id=deck_id,
            learners=table.learners,
            answers=table.answers,
            items=items,
            iterations=found.iterations,
            converged=found.converged,
            fitted_at=now,
        )

    async def last_calibrated(self) -> datetime | None:
        """When the latest stored fit was made (the worker's schedule runs from it)."""
        return await self._store.last_calibrated()
