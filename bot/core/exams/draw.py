"""A mock exam's shape and questions: its size and time, the seats per topic (largest-remainder
apportionment by weight) and the questions drawn for each topic (unseen ones first)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from fractions import Fraction
from random import Random

from bot.core.model.exams import ExamItemDraft
from bot.core.rules.selection import shuffled_option_order
from content.models import MAX_EXAM_QUESTIONS, Deck, ExamBlock, Question


@dataclass(frozen=True)
class ExamPlan:
    """What a new exam on a deck will be: `size` questions in `duration`, spread by `weights`."""

    size: int
    duration: timedelta
    pass_percent: int
    weights: dict[str, float]
    most: int  # the largest question count the deck can fill


@dataclass(frozen=True)
class SizeOutOfRange:
    """`/exam N` with N outside 1..most."""

    requested: int
    most: int


def topic_sizes(deck: Deck) -> dict[str, int]:
    """The questions an exam can ask, per topic: those without an image (see `draw_exam`)."""
    sizes: dict[str, int] = {}
    for question in deck.questions:
        if question.image is None:
            sizes[question.topic] = sizes.get(question.topic, 0) + 1
    return sizes


def plan_exam(deck: Deck, requested: int | None = None) -> ExamPlan | SizeOutOfRange:
    """The deck's exam (its `exam:` block, else 20 questions in 30 minutes with a 70% practice
    pass mark, weighted by topic size), or `requested` questions at the same pace."""
    block = deck.exam or ExamBlock()
    sizes = topic_sizes(deck)
    if block.weights is None:
        weights = {topic: float(size) for topic, size in sizes.items()}
    else:
        weights = {topic: weight for topic, weight in block.weights.items() if topic in sizes}
    most = min(sum(sizes[topic] for topic in weights), MAX_EXAM_QUESTIONS)
    size = min(block.questions, most) if requested is None else requested
    if not 1 <= size <= most:
        return SizeOutOfRange(size, most)
    # The block's pace (minutes per question), rounded up to whole minutes.
    minutes = max(1, math.ceil(block.minutes * size / block.questions))
    return ExamPlan(size, timedelta(minutes=minutes), block.pass_percent, weights, most)


def _largest_remainder(total: int, weights: Mapping[str, float]) -> dict[str, int]:
    """Hamilton's method: each topic gets the floor of its quota, the seats left go to the
    largest remainders (ties: the larger weight, then the topic name)."""
    whole = sum(Fraction(weight) for weight in weights.values())
    if total <= 0 or whole <= 0:
        return dict.fromkeys(weights, 0)
    quotas = {topic: total * Fraction(weight) / whole for topic, weight in weights.items()}
    seats = {topic: math.floor(quota) for topic, quota in quotas.items()}
    left = total - sum(seats.values())
    ranked = sorted(weights, key=lambda t: (-(quotas[t] - seats[t]), -weights[t], t))
    for topic in ranked[:left]:
        seats[topic] += 1
    return seats


def apportion(
    total: int, weights: Mapping[str, float], capacity: Mapping[str, int]
) -> dict[str, int]:
    """`total` seats over the topics by weight (largest remainder), none above its capacity: a
    topic that would get more than it has is given all it has and the rest is apportioned again
    over the others. Topics without weight or questions get none; the sum is `total`, or every
    question there is when that is fewer."""
    pool = {t: w for t, w in weights.items() if w > 0 and capacity.get(t, 0) > 0}
    seats = dict.fromkeys(weights, 0)
    left = min(total, sum(capacity[t] for t in pool))
    while pool:
        given = _largest_remainder(left, pool)
        over = [t for t in pool if given[t] > capacity[t]]
        if not over:
            seats.update(given)
            break
        for topic in over:
            seats[topic] = capacity[topic]
            left -= capacity[topic]
            del pool[topic]
    return seats


def draw_exam(
    deck: Deck, plan: ExamPlan, seen: frozenset[str], rng: Random
) -> tuple[ExamItemDraft, ...]:
    """The exam's questions: each topic's seats filled with questions the learner has never
    answered first (`seen` holds those they have), at random within each group; then the whole
    exam shuffled, each question with its own option order. A question with an image is left
    out: an exam is one text message edited in place, which cannot become a photo."""
    by_topic: dict[str, list[Question]] = {}
    for question in deck.questions:
        if question.image is None:
            by_topic.setdefault(question.topic, []).append(question)
    capacity = {topic: len(questions) for topic, questions in by_topic.items()}
    seats = apportion(plan.size, plan.weights, capacity)
    picked: list[Question] = []
    for topic in sorted(seats):
        questions = by_topic.get(topic, [])
        fresh = [q for q in questions if q.id not in seen]
        known = [q for q in questions if q.id in seen]
        rng.shuffle(fresh)
        rng.shuffle(known)
        picked += (fresh + known)[: seats[topic]]
    rng.shuffle(picked)
    return tuple(
        ExamItemDraft(
            question_id=q.id,
            topic=q.topic,
            option_order=shuffled_option_order(len(q.options), rng),
            question_hash=q.content_hash,
            picks=q.picks,
        )
        for q in picked
    )
