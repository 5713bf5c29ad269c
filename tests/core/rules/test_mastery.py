"""Topics (bot.core.rules.mastery): the Wilson bar, mastery per topic, finding a topic by name."""

from __future__ import annotations

import math
from datetime import UTC, datetime

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bot.core.model import Card, Learned
from bot.core.rules.mastery import (
    deck_topics,
    mastery_of,
    match_topic,
    normalized,
    resolve_topic,
    shortest_prefix,
    topic_size,
    wilson_lower,
)
from tests.builders import topic_deck

NOW = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
NCA_TOPICS = [
    "parallelism", "memory", "nccl", "interconnects", "networking", "storage", "partitioning",
    "scaling", "inference", "operations", "topology",
]  # fmt: skip


def _pressed(topic: str, right: int, wrong: int) -> list[Learned]:
    return [Learned(f"{topic}-{n}", n < right, NOW) for n in range(right + wrong)]


def _card(question_id: str) -> Card:
    return Card(1, "topics", question_id, NOW, 1.0, 5.0, 2, NOW, 1, 1)


# The Wilson lower bound


@pytest.mark.parametrize(
    ("correct", "answered", "expected"),
    [(0, 0, 0.0), (0, 5, 0.0), (2, 2, 0.342), (17, 20, 0.640), (17, 25, 0.484), (100, 100, 0.963)],
)
def test_wilson_lower_bound_matches_known_values(
    correct: int, answered: int, expected: float
) -> None:
    """The 95% Wilson lower bound of a few record counts, to three places."""
    assert wilson_lower(correct, answered) == pytest.approx(expected, abs=5e-4)


def test_two_of_two_is_not_mastery() -> None:
    """2 of 2 right ranks below 17 of 20: a short perfect record proves little."""
    assert wilson_lower(2, 2) < 0.5 < wilson_lower(17, 20)


@settings(max_examples=300)
@given(st.integers(0, 500), st.integers(1, 500))
def test_wilson_lower_bound_lies_between_zero_and_the_accuracy(correct: int, answered: int) -> None:
    """The bound is never negative and never above the plain share right."""
    assume(correct <= answered)
    bound = wilson_lower(correct, answered)
    assert 0.0 <= bound <= correct / answered + 1e-12


@settings(max_examples=200)
@given(st.integers(1, 50), st.integers(0, 50), st.integers(2, 10))
def test_the_same_accuracy_over_more_answers_bounds_higher(
    answered: int, wrong: int, factor: int
) -> None:
    """Scaling a record up (same accuracy, more answers) never lowers the bound."""
    correct = answered
    total = answered + wrong
    small = wilson_lower(correct, total)
    large = wilson_lower(correct * factor, total * factor)
    assert large >= small - 1e-12
    assert not math.isnan(large)


# Mastery per topic


def test_mastery_counts_per_topic_and_sorts_the_weakest_first() -> None:
    """Topics answered rank by their bound, weakest first; ones never answered come last."""
    deck = topic_deck({"memory": 5, "nccl": 5, "storage": 5, "topology": 2})
    history = _pressed("nccl", 4, 1) + _pressed("memory", 1, 2) + _pressed("storage", 2, 0)
    mastery = mastery_of(deck, history, [])
    assert [t.topic for t in mastery.topics] == ["memory", "storage", "nccl", "topology"]
    memory = mastery.topics[0]
    assert (memory.answered, memory.correct, memory.questions) == (3, 1, 5)
    assert mastery.weakest is memory
    assert not mastery.topics[-1].started


def test_equal_bounds_put_the_surer_weakness_first() -> None:
    """0 of 5 is a surer weakness than 0 of 1, though both bound at zero."""
    deck = topic_deck({"a": 5, "b": 5})
    mastery = mastery_of(deck, _pressed("a", 0, 1) + _pressed("b", 0, 5), [])
    assert [t.topic for t in mastery.topics] == ["b", "a"]


def test_due_cards_are_counted_per_topic_and_in_all() -> None:
    """Due cards map to their question's topic; cards of questions gone from the deck are
    left out."""
    deck = topic_deck({"memory": 3, "nccl": 3})
    due = [_card("memory-0"), _card("memory-2"), _card("nccl-1"), _card("gone-7")]
    mastery = mastery_of(deck, [], due)
    assert {t.topic: t.due for t in mastery.topics} == {"memory": 2, "nccl": 1}
    assert mastery.due == 3


def test_nothing_answered_has_no_weakest_topic() -> None:
    """A learner who answered nothing has every topic 'not started' and no weakest."""
    mastery = mastery_of(topic_deck({"a": 1, "b": 1}), [Learned("gone", False, NOW)], [])
    assert mastery.weakest is None
    assert all(not t.started and t.level == 0.0 for t in mastery.topics)


@settings(max_examples=100)
@given(st.lists(st.tuples(st.sampled_from(NCA_TOPICS), st.integers(0, 3), st.booleans())))
def test_mastery_accounts_for_every_press_of_the_deck(presses: list[tuple[str, int, bool]]) -> None:
    """Every press on a question of the deck is counted once, under its question's topic."""
    deck = topic_deck(dict.fromkeys(NCA_TOPICS, 4))
    history = [Learned(f"{topic}-{n}", ok, NOW) for topic, n, ok in presses]
    mastery = mastery_of(deck, history, [])
    assert sum(t.answered for t in mastery.topics) == len(presses)
    assert sum(t.correct for t in mastery.topics) == sum(ok for _, _, ok in presses)
    levels = [t.level for t in mastery.started]
    assert levels == sorted(levels)
    assert len(mastery.topics) == len(NCA_TOPICS)


# Finding a topic


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("nccl", ["nccl"]),
        ("NCCL", ["nccl"]),
        ("net", ["networking"]),
        ("in", ["interconnects", "inference"]),
        ("inf", ["inference"]),
        ("p", ["parallelism", "partitioning"]),
        ("storage ", ["storage"]),
        ("x", []),
        ("", []),
        ("networking-x", []),
    ],
)
def test_a_topic_is_found_by_its_name_or_an_unambiguous_start(query: str, found: list[str]) -> None:
    """Case-insensitive: the full name, else every topic starting with what was typed."""
    assert match_topic(NCA_TOPICS, query) == found


def test_a_full_name_wins_over_longer_names_it_starts() -> None:
    """'net' names the topic 'net' even when 'networking' starts with it too."""
    assert match_topic(["networking", "net"], "NET") == ["net"]


def test_resolve_topic_gives_the_deck_and_candidates_when_not_one() -> None:
    """An ambiguous name keeps its candidates; an unknown one has none."""
    deck = topic_deck({"inference": 1, "interconnects": 1, "nccl": 1})
    assert resolve_topic(deck, "Nc") == "nccl"
    ambiguous = resolve_topic(deck, "in")
    assert not isinstance(ambiguous, str)
    assert (ambiguous.candidates, ambiguous.deck) == (("inference", "interconnects"), deck)
    unknown = resolve_topic(deck, "zzz")
    assert not isinstance(unknown, str)
    assert unknown.candidates == ()


TOPIC_NAMES = st.lists(
    st.text(st.characters(categories=("L", "N", "Pd", "Zs")), min_size=1, max_size=20).filter(
        lambda t: normalized(t) != ""
    ),
    min_size=1,
    max_size=12,
    unique_by=normalized,
)


@settings(max_examples=200)
@given(TOPIC_NAMES, st.data())
def test_every_topic_is_found_by_its_name_in_any_case(
    topics: list[str], data: st.DataObject
) -> None:
    """A topic's full name, upper- or lower-cased and re-spaced, finds exactly it."""
    topic = data.draw(st.sampled_from(topics))
    typed = data.draw(st.sampled_from([topic, topic.upper(), topic.lower(), f"  {topic} "]))
    assume(normalized(typed) == normalized(topic))
    assert match_topic(topics, typed) == [topic]


@settings(max_examples=200)
@given(TOPIC_NAMES, st.data())
def test_a_prefix_finds_exactly_the_topics_starting_with_it(
    topics: list[str], data: st.DataObject
) -> None:
    """Any start of a name finds that topic, alone or with the others sharing that start."""
    topic = data.draw(st.sampled_from(topics))
    name = normalized(topic)
    end = data.draw(st.integers(1, len(name)))
    found = match_topic(topics, name[:end])
    assert topic in found or any(normalized(t) == name[:end].strip() for t in found)
    assert all(normalized(t).startswith(normalized(name[:end])) for t in found)


@settings(max_examples=200)
@given(TOPIC_NAMES, st.data())
def test_the_shortest_prefix_finds_its_topic_alone(topics: list[str], data: st.DataObject) -> None:
    """The prefix suggested to users names just that topic (or is the whole name)."""
    topic = data.draw(st.sampled_from(topics))
    prefix = shortest_prefix(topics, topic)
    assert match_topic(topics, prefix) == [topic]


def test_deck_topics_are_sorted_with_their_sizes() -> None:
    """The deck's topics by name, each with its number of questions."""
    deck = topic_deck({"nccl": 2, "Memory": 3, "apis": 1})
    assert deck_topics(deck) == {"apis": 1, "Memory": 3, "nccl": 2}
    assert (topic_size(deck, "Memory"), topic_size(deck, None), topic_size(deck, "x")) == (3, 6, 0)
