"""Question selection from one topic (`/quiz [N] TOPIC`)."""

from __future__ import annotations

from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.model import PassState
from bot.core.rules.selection import next_question
from tests.builders import topic_deck

DECK = topic_deck({"memory": 3, "nccl": 4, "storage": 2})


def test_a_topic_draws_only_its_questions_until_the_pass_has_them_all() -> None:
    """Four nccl questions in a row are the four nccl ones, all in the current pass."""
    state = PassState(1, frozenset({"memory-0"}))
    asked: list[str] = []
    rng = Random(2)
    for _ in range(4):
        question, pass_no = next_question(DECK, state, rng, topic="nccl")
        assert (question.topic, pass_no) == ("nccl", 1)
        asked.append(question.id)
        state = PassState(1, state.asked | {question.id}, question.id)
    assert sorted(asked) == [f"nccl-{n}" for n in range(4)]


def test_a_topic_the_pass_has_had_repeats_in_the_same_pass() -> None:
    """With the topic done but the deck not, a topic question comes back in the same pass,
    not the one asked last."""
    state = PassState(3, frozenset({"storage-0", "storage-1"}), "storage-1")
    for seed in range(20):
        question, pass_no = next_question(DECK, state, Random(seed), topic="storage")
        assert (question.id, pass_no) == ("storage-0", 3)


def test_a_topic_question_after_the_whole_deck_starts_a_new_pass() -> None:
    """When the pass has had every question of the deck, the topic's next one opens a pass."""
    state = PassState(2, frozenset(q.id for q in DECK.questions), "memory-1")
    question, pass_no = next_question(DECK, state, Random(0), topic="memory")
    assert question.topic == "memory"
    assert question.id != "memory-1"
    assert pass_no == 3


def test_a_topic_the_deck_lost_draws_from_the_whole_deck() -> None:
    """A round's topic gone from a changed deck falls back to any question."""
    question, pass_no = next_question(DECK, PassState(1, frozenset()), Random(0), topic="gone")
    assert question in DECK.questions
    assert pass_no == 1


@settings(max_examples=100)
@given(
    st.sampled_from(["memory", "nccl", "storage"]),
    st.sets(st.sampled_from([q.id for q in DECK.questions])),
    st.integers(0, 10_000),
)
def test_a_round_on_a_topic_never_repeats_while_the_topic_has_others(
    topic: str, asked: set[str], seed: int
) -> None:
    """Drawing as many questions as the topic has, avoiding the round's, repeats none."""
    size = sum(1 for q in DECK.questions if q.topic == topic)
    state = PassState(1, frozenset(asked))
    rng = Random(seed)
    drawn: list[str] = []
    for _ in range(size):
        question, pass_no = next_question(DECK, state, rng, frozenset(drawn), topic=topic)
        assert question.topic == topic
        drawn.append(question.id)
        before = state.asked if pass_no == state.pass_no else frozenset()
        state = PassState(pass_no, before | {question.id}, question.id)
    assert len(set(drawn)) == size
