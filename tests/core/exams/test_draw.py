"""Mock exams' shape and questions: plan, largest-remainder apportionment, drawing."""

from __future__ import annotations

import math
from collections import Counter
from datetime import timedelta
from fractions import Fraction
from random import Random

from hypothesis import given
from hypothesis import strategies as st

from bot.core.exams.draw import SizeOutOfRange, apportion, draw_exam, plan_exam, topic_sizes
from content.loader import DEFAULT_CONTENT_DIR, load_decks
from content.models import ExamBlock
from tests.builders import deck_of

# The blueprint's topic weights (shared/content/BLUEPRINT.md), in percent.
BLUEPRINT = {
    "parallelism": 14,
    "memory": 12,
    "nccl": 12,
    "interconnects": 11,
    "networking": 11,
    "storage": 4,
    "partitioning": 8,
    "scaling": 8,
    "inference": 8,
    "operations": 7,
    "topology": 5,
}


def test_largest_remainder_gives_the_leftover_seats_to_the_largest_remainders() -> None:
    """20 seats by the blueprint's weights: floors first, then the 4 largest remainders."""
    seats = apportion(20, BLUEPRINT, dict.fromkeys(BLUEPRINT, 20))
    # Quotas: 2.8, 2.4, 2.4, 2.2, 2.2, 0.8, 1.6, 1.6, 1.6, 1.4, 1.0.
    assert seats == {
        "parallelism": 3,
        "memory": 2,
        "nccl": 2,
        "interconnects": 2,
        "networking": 2,
        "storage": 1,
        "partitioning": 2,
        "scaling": 2,
        "inference": 2,
        "operations": 1,
        "topology": 1,
    }


def test_a_topic_short_of_questions_gives_its_seats_to_the_others() -> None:
    """A capped topic gets all it has; the rest is apportioned again over the others."""
    seats = apportion(10, {"big": 8, "small": 1, "tiny": 1}, {"big": 3, "small": 10, "tiny": 10})
    assert seats == {"big": 3, "small": 4, "tiny": 3}


def test_ties_on_the_remainder_go_to_the_larger_weight_then_the_name() -> None:
    """Equal remainders are broken by weight, then alphabetically: the result is deterministic."""
    room = {"a": 5, "b": 5, "c": 5}
    # Quotas 0.5, 0.5 and 1: the seat left goes to a, not b.
    assert apportion(2, {"b": 1, "a": 1, "c": 2}, room) == {"a": 1, "b": 0, "c": 1}
    # Quotas 0.5 and 1.5: the remainders tie and c weighs more.
    assert apportion(2, {"a": 1, "c": 3}, room) == {"a": 0, "c": 2}


def test_topics_without_weight_or_questions_get_no_seats() -> None:
    """A zero weight or an empty topic is never asked; asking too much gives all there is."""
    seats = apportion(50, {"a": 1, "b": 0, "c": 3}, {"a": 2, "b": 9, "c": 0})
    assert seats == {"a": 2, "b": 0, "c": 0}


WEIGHTS = st.dictionaries(st.sampled_from("abcdefgh"), st.integers(1, 100), min_size=1, max_size=8)


@given(WEIGHTS, st.integers(0, 60), st.data())
def test_apportionment_fills_every_seat_and_respects_capacities(
    weights: dict[str, int], total: int, data: st.DataObject
) -> None:
    """The seats add up to the total (or all questions there are), none above its capacity."""
    capacity = {t: data.draw(st.integers(0, 20), label=t) for t in weights}
    seats = apportion(total, weights, capacity)
    assert sum(seats.values()) == min(total, sum(capacity.values()))
    assert all(0 <= seats[t] <= capacity[t] for t in weights)


@given(WEIGHTS, st.integers(0, 60))
def test_uncapped_seats_stay_within_one_of_the_quota(weights: dict[str, int], total: int) -> None:
    """Without caps every topic gets the floor or the ceiling of its exact quota."""
    seats = apportion(total, weights, dict.fromkeys(weights, 100))
    whole = sum(weights.values())
    for topic, weight in weights.items():
        quota = Fraction(total * weight, whole)
        assert math.floor(quota) <= seats[topic] <= math.ceil(quota)


def test_without_an_exam_block_an_exam_is_20_questions_in_30_minutes_at_70_percent() -> None:
    """A deck with no block: the defaults, weighted by topic size."""
    deck = deck_of({"a": 30, "b": 20, "c": 10})
    plan = plan_exam(deck)
    assert not isinstance(plan, SizeOutOfRange)
    assert (plan.size, plan.duration, plan.pass_percent) == (20, timedelta(minutes=30), 70)
    assert plan.weights == {t: float(n) for t, n in topic_sizes(deck).items()}
    assert plan.most == len(deck.questions) == 60


def test_the_shipped_deck_s_exam_follows_the_blueprint() -> None:
    """The default deck's practice exam: 50 questions in an hour, every blueprint topic by its
    weight (each topic's seats within one of its exact quota)."""
    deck = load_decks(DEFAULT_CONTENT_DIR)["nca-multi-gpu"]
    plan = plan_exam(deck)
    assert not isinstance(plan, SizeOutOfRange)
    assert (plan.size, plan.duration) == (50, timedelta(minutes=60))
    assert set(plan.weights) == set(topic_sizes(deck))
    drawn = draw_exam(deck, plan, frozenset(), Random(1))
    seats = Counter(item.topic for item in drawn)
    whole = sum(plan.weights.values())
    for topic, weight in plan.weights.items():
        assert abs(seats[topic] - 50 * weight / whole) < 1.5


def test_a_chosen_count_keeps_the_pace_and_a_small_deck_caps_the_default() -> None:
    """`/exam 10` gets 15 minutes; a 5-question deck's exam is 5 questions in 8 minutes."""
    deck = deck_of({"a": 30})
    assert plan_exam(deck, 10) == plan_exam(deck, 10)
    ten = plan_exam(deck, 10)
    assert not isinstance(ten, SizeOutOfRange)
    assert ten.duration == timedelta(minutes=15)
    small = plan_exam(deck_of({"a": 5}))
    assert not isinstance(small, SizeOutOfRange)
    assert (small.size, small.duration) == (5, timedelta(minutes=8))


def test_a_count_outside_the_deck_is_out_of_range() -> None:
    """0 and more questions than the weighted topics hold are refused, naming the maximum."""
    block = ExamBlock(questions=4, minutes=10, pass_percent=80, weights={"a": 1, "b": 3})
    deck = deck_of({"a": 3, "b": 3, "c": 9}, block)
    assert plan_exam(deck, 0) == SizeOutOfRange(0, 6)
    assert plan_exam(deck, 7) == SizeOutOfRange(7, 6)
    plan = plan_exam(deck, 6)
    assert not isinstance(plan, SizeOutOfRange)
    assert (plan.duration, plan.pass_percent) == (timedelta(minutes=15), 80)


def test_drawing_fills_each_topics_seats_with_unseen_questions_first() -> None:
    """Seen questions are drawn only when a topic has too few unseen ones."""
    block = ExamBlock(questions=6, minutes=9, weights={"a": 1, "b": 1})
    deck = deck_of({"a": 5, "b": 4, "c": 5}, block)
    plan = plan_exam(deck)
    assert not isinstance(plan, SizeOutOfRange)
    seen = frozenset({"a-0", "a-1", "b-0", "b-1", "b-2"})
    for seed in range(30):
        items = draw_exam(deck, plan, seen, Random(seed))
        ids = [item.question_id for item in items]
        assert len(set(ids)) == 6
        assert Counter(item.topic for item in items) == {"a": 3, "b": 3}
        assert {i for i in ids if i.startswith("a")}.isdisjoint(seen)
        assert "b-3" in ids  # the one unseen b question, plus two seen ones
        assert all(sorted(item.option_order) == [0, 1, 2, 3] for item in items)


def test_drawing_is_random_within_the_unseen_questions() -> None:
    """Different seeds draw different sets and orders of a topic's questions."""
    deck = deck_of({"a": 20})
    plan = plan_exam(deck, 5)
    assert not isinstance(plan, SizeOutOfRange)
    draws = {
        tuple(item.question_id for item in draw_exam(deck, plan, frozenset(), Random(seed)))
        for seed in range(10)
    }
    assert len(draws) > 5


def test_questions_with_an_image_are_left_out_of_the_plan_and_the_drawing() -> None:
    """An exam is one text message: a deck's image questions are never drawn, and neither the
    exam's size, its time nor the largest `/exam N` counts them."""
    deck = deck_of({"a": 4, "b": 3})
    pictured = {"a-0", "a-1", "b-0", "b-1", "b-2"}
    questions = [
        q.model_copy(update={"image": "images/ring.png"}) if q.id in pictured else q
        for q in deck.questions
    ]
    deck = deck.model_copy(update={"questions": questions})
    plan = plan_exam(deck)
    assert not isinstance(plan, SizeOutOfRange)
    assert (plan.size, plan.most, plan.weights) == (2, 2, {"a": 2.0})
    assert plan.duration == timedelta(minutes=3)
    for seed in range(10):
        drawn = draw_exam(deck, plan, frozenset(), Random(seed))
        assert sorted(item.question_id for item in drawn) == ["a-2", "a-3"]
    assert plan_exam(deck, 3) == SizeOutOfRange(3, 2)
