"""Simulated learners whose memory follows known FSRS parameters, for the tests and the
benchmark (benchmarks/tutor/memory_fit.py): the bot schedules them with the defaults, they come
back a little late, and each press is right with the recall probability of their true model."""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from datetime import datetime, timedelta
from random import Random

from fsrs import Card as FsrsCard
from fsrs import Rating

from bot.core.memory.fit.loss import scheduler_with
from bot.core.model.memory import Learned

DEFAULTS: tuple[float, ...] = tuple(scheduler_with(None).parameters)
FIRST_RIGHT = 0.6  # a question's first press: no memory of it yet
NEW_PER_DAY = 12


def scaled(stabilities: float, decay: float | None = None) -> tuple[float, ...]:
    """The defaults with the four initial stabilities multiplied by `stabilities` (below 1: a
    learner who forgets faster) and, given, another decay (the last parameter)."""
    values = list(DEFAULTS)
    for index in range(4):
        values[index] = max(0.01, values[index] * stabilities)
    if decay is not None:
        values[20] = decay
    return tuple(values)


def simulated_presses(
    true_parameters: Sequence[float], reviews: int, seed: int, start: datetime
) -> list[Learned]:
    """`reviews` presses of a learner whose memory follows `true_parameters`, oldest first."""
    rng = Random(seed)
    truth, bot = scheduler_with(true_parameters), scheduler_with(None)
    cards: dict[str, tuple[FsrsCard, FsrsCard]] = {}
    queue: list[tuple[datetime, str]] = []
    presses: list[Learned] = []
    day = 0
    while len(presses) < reviews:
        today = start + timedelta(days=day)
        for n in range(NEW_PER_DAY):
            at = today + timedelta(hours=rng.uniform(8, 22))
            heapq.heappush(queue, (at, f"q{day}-{n}"))
        horizon = today + timedelta(days=1)
        while queue and queue[0][0] < horizon and len(presses) < reviews:
            at, question = heapq.heappop(queue)
            if question in cards:
                true_card, bot_card = cards[question]
                right = rng.random() < truth.get_card_retrievability(true_card, at)
            else:
                true_card = bot_card = FsrsCard(card_id=0, due=at)
                right = rng.random() < FIRST_RIGHT
            rating = Rating.Good if right else Rating.Again
            true_card, _ = truth.review_card(true_card, rating, review_datetime=at)
            bot_card, _ = bot.review_card(bot_card, rating, review_datetime=at)
            cards[question] = (true_card, bot_card)
            presses.append(Learned(question, right, at))
            late = timedelta(hours=rng.expovariate(1 / 30))  # learners come back late
            heapq.heappush(queue, (max(bot_card.due, at + timedelta(hours=1)) + late, question))
        day += 1
    return presses
