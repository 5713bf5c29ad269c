"""Each learner's memory of each question, scheduled with FSRS (the `fsrs` package).

A wrong first press is `Again`, a right one `Good` (the FSRS authors' advice for right/wrong
answers; a slow answer is not `Hard`). Scheduling is day-granular: no intra-day learning steps,
which suit a flashcard app open all day but not a chat bot asked a few times a day. A question
the learner has never missed has no card: a right first answer only goes into the log.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fsrs import Card as FsrsCard
from fsrs import Rating, Scheduler, State

from bot.core.model.memory import Card, LearnSource
from bot.core.ports.memory import MemoryWrites

DEFAULT_RETENTION = 0.9


class Memory:
    def __init__(self, retention: float = DEFAULT_RETENTION) -> None:
        # No fuzzing: the same answers give the same due dates (tests, support questions).
        self._scheduler = Scheduler(
            desired_retention=retention,
            learning_steps=(),
            relearning_steps=(),
            enable_fuzzing=False,
        )

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
        after, _ = self._scheduler.review_card(
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
