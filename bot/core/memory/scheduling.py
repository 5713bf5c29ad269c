"""Each learner's memory of each question, scheduled with FSRS (the `fsrs` package).

A wrong first press is `Again`, a right one `Good` (the FSRS authors' advice for right/wrong
answers; a slow answer is not `Hard`). Scheduling is day-granular: no intra-day learning steps,
which suit a flashcard app open all day but not a chat bot asked a few times a day. A question
the learner has never missed has no card: a right first answer only goes into the log.

A learner whose own parameters were fitted in a deck (bot/core/memory/fit/) is scheduled there
with them. They are read once per learner and deck (one read by key) and kept for `cached_for`
(so another replica's refit is seen), and dropped at once on a refit or `/forgetme` here.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from fsrs import Card as FsrsCard
from fsrs import Rating, Scheduler, State

from bot.core.memory.fit.loss import scheduler_with
from bot.core.model.memory import Card, LearnSource
from bot.core.ports.fits import MemoryFitStore
from bot.core.ports.memory import MemoryWrites

DEFAULT_RETENTION = 0.9
CACHED_FOR = timedelta(minutes=10)
CACHE_SIZE = 100_000  # learners and decks; beyond, the cache starts again empty


class Memory:
    def __init__(
        self,
        retention: float = DEFAULT_RETENTION,
        fits: MemoryFitStore | None = None,
        *,
        cached_for: timedelta = CACHED_FOR,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._retention = retention
        self._scheduler = self._scheduler_with(None)
        self._fits = fits
        self._cached_for = cached_for.total_seconds()
        self._monotonic = monotonic
        # (user, deck) -> (their scheduler, or None for the defaults; when it was read)
        self._personal: dict[tuple[int, str], tuple[Scheduler | None, float]] = {}

    def _scheduler_with(self, parameters: tuple[float, ...] | None) -> Scheduler:
        # No fuzzing: the same answers give the same due dates (tests, support questions).
        return scheduler_with(parameters, self._retention)

    async def prepare(self, user_id: int, deck_id: str) -> None:
        """Have the learner's scheduler at hand for `review` (a read only when not cached)."""
        if self._fits is None:
            return
        key = (user_id, deck_id)
        cached = self._personal.get(key)
        now = self._monotonic()
        if cached is not None and now - cached[1] < self._cached_for:
            return
        fit = await self._fits.memory_fit(user_id, deck_id)
        parameters = None if fit is None else fit.parameters
        if len(self._personal) >= CACHE_SIZE:
            self._personal.clear()
        self._personal[key] = (
            None if parameters is None else self._scheduler_with(parameters),
            now,
        )

    def refitted(self, user_id: int, deck_id: str | None = None) -> None:
        """Forget the cached parameters of the learner (in one deck, or all)."""
        for key in [key for key in self._personal if key[0] == user_id]:
            if deck_id is None or key[1] == deck_id:
                del self._personal[key]

    def scheduler_for(self, user_id: int, deck_id: str) -> Scheduler:
        """The learner's scheduler as last prepared; the defaults' when they have none."""
        cached = self._personal.get((user_id, deck_id))
        personal = None if cached is None else cached[0]
        return self._scheduler if personal is None else personal

    def review(
        self,
        card: Card | None,
        *,
        user_id: int,
        deck_id: str,
        question_id: str,
        correct: bool,
        now: datetime,
    ) -> Card | None:
        """The card after this answer; None when there is none (never missed, right again)."""
        if card is None and correct:
            return None
        before = FsrsCard(card_id=0, due=now) if card is None else _to_fsrs(card)
        scheduler = self.scheduler_for(user_id, deck_id)
        after, _ = scheduler.review_card(
            before, Rating.Good if correct else Rating.Again, review_datetime=now
        )
        return Card(
            user_id=user_id,
            deck_id=deck_id,
            question_id=question_id,
            due=after.due.astimezone(UTC),
            stability=float(after.stability or 0.0),
            difficulty=float(after.difficulty or 0.0),
            state=int(after.state),
            last_review=now,
            reviews=(0 if card is None else card.reviews) + 1,
            lapses=(0 if card is None else card.lapses) + (0 if correct else 1),
        )

    async def learn(
        self,
        tx: MemoryWrites,
        *,
        user_id: int,
        deck_id: str,
        question_id: str,
        correct: bool,
        now: datetime,
        duration: timedelta | None,
        source: LearnSource,
    ) -> Card | None:
        """Log the press and update (or, on a miss, create) the card, in the caller's commit.

        The caller has `prepare`d the learner's scheduler before its transaction.
        For presses not stored as `answers` (exams): an answer's log row is written by a
        trigger on `answers`, and the answer path uses `review` and `save_card` directly."""
        duration_ms = None if duration is None else max(0, int(duration.total_seconds() * 1000))
        await tx.log_learning(user_id, deck_id, question_id, correct, now, duration_ms, source)
        card = await tx.card(user_id, deck_id, question_id)
        updated = self.review(
            card,
            user_id=user_id,
            deck_id=deck_id,
            question_id=question_id,
            correct=correct,
            now=now,
        )
        if updated is not None:
            await tx.save_card(updated)
        return updated


def _to_fsrs(card: Card) -> FsrsCard:
    # An explicit card_id: without one fsrs makes a unique id by sleeping 1 ms, which would
    # stall the event loop on every answer.
    return FsrsCard(
        card_id=0,
        state=State(card.state),
        step=None,
        stability=card.stability,
        difficulty=card.difficulty,
        due=card.due,
        last_review=card.last_review,
    )
