"""How well a set of FSRS parameters predicts a learner's reviews: the log loss of the recall
probability FSRS gave each review before it happened, replayed with the scheduler the bot uses
(py-fsrs, day-granular, no learning steps)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from datetime import datetime

from fsrs import Card as FsrsCard
from fsrs import Rating, Scheduler

from bot.core.model.memory import Learned

# A probability is kept this far from 0 and 1: one confident miss costs at most ~7 nats.
EPSILON = 1e-3


def scheduler_with(parameters: Sequence[float] | None, retention: float = 0.9) -> Scheduler:
    """The bot's scheduler (no fuzzing, no learning steps) with `parameters`, or the defaults."""
    if parameters is None:
        return Scheduler(
            desired_retention=retention,
            learning_steps=(),
            relearning_steps=(),
            enable_fuzzing=False,
        )
    return Scheduler(
        parameters=tuple(parameters),
        desired_retention=retention,
        learning_steps=(),
        relearning_steps=(),
        enable_fuzzing=False,
    )


def by_question(presses: Iterable[Learned]) -> dict[str, list[Learned]]:
    """The presses of each question, oldest first."""
    grouped: dict[str, list[Learned]] = {}
    for press in sorted(presses, key=lambda p: p.at):
        grouped.setdefault(press.question_id, []).append(press)
    return grouped


def predictions(
    scheduler: Scheduler, presses: Iterable[Learned]
) -> list[tuple[datetime, float, bool]]:
    """Each press after a question's first: when, the recall probability FSRS gave it, and
    whether the learner was right."""
    out: list[tuple[datetime, float, bool]] = []
    for history in by_question(presses).values():
        card = FsrsCard(card_id=0, due=history[0].at)
        for nth, press in enumerate(history):
            if nth > 0:
                out.append(
                    (press.at, scheduler.get_card_retrievability(card, press.at), press.correct)
                )
            rating = Rating.Good if press.correct else Rating.Again
            card, _ = scheduler.review_card(card, rating, review_datetime=press.at)
    return out


def log_loss(scored: Iterable[tuple[float, bool]]) -> float:
    """The mean negative log likelihood of the outcomes; 0.0 for none."""
    total, n = 0.0, 0
    for probability, correct in scored:
        p = min(1.0 - EPSILON, max(EPSILON, probability))
        total -= math.log(p if correct else 1.0 - p)
        n += 1
    return total / n if n else 0.0
