"""Question selection and option shuffling."""

from __future__ import annotations

import itertools
from random import Random

from bot.core.model import PassState
from bot.core.rules.selection import next_question, shuffled_option_order
from content.models import Deck
from tests.builders import simple_deck as _deck


def _walk(deck: Deck, count: int, seed: int) -> list[tuple[str, int]]:
    rng = Random(seed)
    asked: list[tuple[str, int]] = []
    state = PassState(1, frozenset())
    for _ in range(count):
        question, pass_no = next_question(deck, state, rng)
        asked.append((question.id, pass_no))
        same_pass = {q for q, p in asked if p == pass_no}
        state = PassState(pass_no, frozenset(same_pass), question.id)
    return asked


def test_no_question_repeats_until_the_deck_is_exhausted() -> None:
    """Each pass covers every question exactly once before any comes back."""
    deck = _deck(7)
    for seed in range(20):
        walk = _walk(deck, 21, seed)
        for pass_no in (1, 2, 3):
            ids = [q for q, p in walk if p == pass_no]
            assert sorted(ids) == sorted(q.id for q in deck.questions)


def test_new_pass_never_starts_with_the_last_question() -> None:
    """Across a pass boundary the same question is never asked twice in a row."""
    deck = _deck(3)
    for seed in range(50):
        ids = [q for q, _ in _walk(deck, 30, seed)]
        assert all(a != b for a, b in itertools.pairwise(ids))


def test_passes_are_shuffled_differently() -> None:
    """Fresh passes come in a new random order, not the deck's order each time."""
    deck = _deck(6)
    orders = {tuple(q for q, p in _walk(deck, 6, seed)) for seed in range(10)}
    assert len(orders) > 1


def test_one_question_deck_repeats_it() -> None:
    """A deck of one question still yields a question on every pass."""
    assert [p for _, p in _walk(_deck(1), 3, 0)] == [1, 2, 3]


def test_questions_removed_from_the_deck_do_not_block_a_pass() -> None:
    """Ids asked earlier that the deck no longer has are ignored."""
    deck = _deck(2)
    state = PassState(4, frozenset({"q0", "gone"}), "gone")
    question, pass_no = next_question(deck, state, Random(1))
    assert (question.id, pass_no) == ("q1", 4)


def test_option_order_is_a_permutation_and_varies() -> None:
    """Option orders are permutations of all options, and the right one moves around."""
    rng = Random(3)
    orders = [shuffled_option_order(4, rng) for _ in range(200)]
    assert all(sorted(order) == [0, 1, 2, 3] for order in orders)
    assert {order.index(0) for order in orders} == {0, 1, 2, 3}
