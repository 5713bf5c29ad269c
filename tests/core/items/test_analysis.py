"""Item analysis statistics on small cases computed by hand."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from bot.core.items.analysis import (
    Flag,
    Item,
    analyse,
    chosen_option,
    item_flags,
    point_biserial,
    upper_lower_index,
)
from bot.core.ports import FirstAnswer

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ITEMS = [Item(q, f"Question {q}?", (f"{q} right", "w1", "w2", "w3")) for q in ("q1", "q2", "q3")]


def first(
    user: int,
    question: str,
    option: int,
    *,
    order: tuple[int, ...] = (2, 0, 3, 1),
    seconds: float = 10.0,
    posted: float | None = None,
) -> FirstAnswer:
    """A first answer picking deck option `option`, shown in `order`; `posted` seconds after
    the ask (None: no recorded posting), answered `seconds` after the ask."""
    return FirstAnswer(
        user_id=user,
        question_id=question,
        option_order=order,
        position=order.index(option),
        correct=option == 0,
        asked_at=T0,
        posted_at=None if posted is None else T0 + timedelta(seconds=posted),
        answered_at=T0 + timedelta(seconds=seconds),
    )


def test_chosen_position_maps_back_to_the_deck_option() -> None:
    """option_order[position] is the deck index; a position outside the order maps to None."""
    assert [chosen_option((2, 0, 3, 1), p) for p in range(4)] == [2, 0, 3, 1]
    assert chosen_option((2, 0, 3, 1), 4) is None
    assert chosen_option((2, 0, 3, 1), -1) is None


def test_point_biserial_matches_a_hand_computed_value() -> None:
    """Scores 1,1,0,0 against rests 3,2,1,0: cov 2, sums of squares 1 and 5, r = 2/sqrt(5)."""
    assert point_biserial([1, 1, 0, 0], [3, 2, 1, 0]) == pytest.approx(2 / math.sqrt(5))
    assert point_biserial([0, 0, 1, 1], [3, 2, 1, 0]) == pytest.approx(-2 / math.sqrt(5))


def test_point_biserial_is_undefined_for_constant_scores_or_rests_or_one_learner() -> None:
    """No variance in either variable (or a single learner) gives None, not a division error."""
    assert point_biserial([1, 1, 1], [3, 2, 1]) is None
    assert point_biserial([1, 0, 1], [2, 2, 2]) is None
    assert point_biserial([1], [4]) is None


def test_upper_lower_shares_a_tie_at_the_cut_pro_rata() -> None:
    """Ten learners, groups of round(2.7) = 3: the upper group takes rests 9 and 8 and half
    each of the two tied at 7 (one right), so 2.5/3; the lower group (rests 1, 2, 3) is all
    wrong: D = 2.5/3."""
    rests = [9, 8, 7, 7, 6, 5, 4, 3, 2, 1]
    scores = [1, 1, 1, 0, 1, 0, 1, 0, 0, 0]
    assert upper_lower_index(scores, rests) == pytest.approx(2.5 / 3)


def test_upper_lower_is_negative_when_weak_learners_get_it_right() -> None:
    """Right answers only among the lowest rest scores give D = 0 - 1 = -1."""
    assert upper_lower_index([0, 0, 0, 1, 1, 1], [9, 8, 7, 2, 1, 0]) == pytest.approx(-1.0)


def test_upper_lower_needs_two_learners() -> None:
    """One learner makes no groups (None); two make groups of one each."""
    assert upper_lower_index([1], [3]) is None
    assert upper_lower_index([1, 0], [3, 1]) == pytest.approx(1.0)


def test_rest_score_leaves_out_the_item_itself() -> None:
    """Three learners on three items: q1's rests are the scores on q2 and q3 only (2, 1, 0),
    so q1 (right, right, wrong) has r = cov 1 / sqrt(2/3 * 2) = 0.866."""
    answers = [
        first(1, "q1", 0), first(1, "q2", 0), first(1, "q3", 0),
        first(2, "q1", 0), first(2, "q2", 0), first(2, "q3", 1),
        first(3, "q1", 1), first(3, "q2", 2), first(3, "q3", 3),
    ]  # fmt: skip
    deck = analyse("d", "D", ITEMS, answers, {})
    q1 = deck.items[0]
    assert q1.point_biserial == pytest.approx(1 / math.sqrt(2 / 3 * 2))
    assert (q1.answers, q1.right, q1.share_right) == (3, 2, pytest.approx(2 / 3))
    assert q1.picks == (2, 1, 0, 0)
    assert (deck.learners, deck.answers) == (3, 9)


def test_never_answered_items_are_listed_with_zero_answers() -> None:
    """Items of the deck with no answers appear, in deck order, with no figures or flags."""
    deck = analyse("d", "D", ITEMS, [first(1, "q2", 0)], {"q3": 2})
    assert [item.item.question_id for item in deck.items] == ["q1", "q2", "q3"]
    q1, _, q3 = deck.items
    assert (q1.answers, q1.share_right, q1.point_biserial, q1.upper_lower) == (0, None, None, None)
    assert (q1.picks, q1.median_seconds, q1.flags) == ((0, 0, 0, 0), None, ())
    assert q3.open_reports == 2


def test_answered_or_reported_questions_gone_from_the_deck_come_last() -> None:
    """A question no longer in the deck is analysed by id after the deck's own, not in_deck."""
    deck = analyse("d", "D", ITEMS[:1], [first(1, "zz", 1), first(1, "q1", 0)], {"old": 1})
    assert [(i.item.question_id, i.in_deck) for i in deck.items] == [
        ("q1", True),
        ("old", False),
        ("zz", False),
    ]
    assert deck.items[2].picks == (0, 1, 0, 0)


def test_a_second_answer_by_the_same_user_is_refused() -> None:
    """The analysis takes first answers only: two for one user and question is an error."""
    with pytest.raises(ValueError, match="more than one"):
        analyse("d", "D", ITEMS, [first(1, "q1", 0), first(1, "q1", 1, seconds=99)], {})


def test_median_time_runs_from_posting_or_else_from_asking() -> None:
    """Times are answered_at minus posted_at where recorded, else minus asked_at; the
    answers timed from asked_at are counted."""
    answers = [
        first(1, "q1", 0, seconds=10, posted=4),  # 6 s after posting
        first(2, "q1", 0, seconds=9),  # 9 s after asking
        first(3, "q1", 1, seconds=30, posted=2),  # 28 s after posting
        first(4, "q1", 1, seconds=1, posted=3),  # pressed before the post was noted: 0 s
    ]
    deck = analyse("d", "D", ITEMS, answers, {})
    assert deck.items[0].median_seconds == pytest.approx(7.5)
    assert deck.timed_from_asked == 1


def test_no_flags_at_thirty_answers_and_flags_past_thirty() -> None:
    """Flags need more than 30 first answers: all wrong at 30 raises nothing, at 31 it is
    too hard, the key is in doubt (wrong option B beats the answer) and C, D are dead."""
    assert item_flags(30, 0, [0, 30, 0, 0], None) == ((), ())
    flags, dead = item_flags(31, 0, [0, 31, 0, 0], None)
    assert flags == (Flag.TOO_HARD, Flag.CHECK_KEY, Flag.DEAD_DISTRACTORS)
    assert dead == (2, 3)


@pytest.mark.parametrize(
    ("right", "picks", "pb", "expected"),
    [
        (29, [29, 3], 0.30, (Flag.TOO_EASY,)),
        (28, [28, 2, 2, 0], 0.30, (Flag.DEAD_DISTRACTORS,)),
        (16, [16, 6, 5, 5], 0.19, (Flag.WEAK,)),
        (16, [16, 6, 5, 5], -0.05, (Flag.WEAK, Flag.CHECK_KEY)),
        (12, [12, 14, 3, 3], 0.25, (Flag.CHECK_KEY,)),
        (16, [16, 6, 5, 5], 0.20, ()),
        (10, [10, 8, 7, 7], 0.40, ()),
    ],
)
def test_flag_thresholds(right: int, picks: list[int], pb: float, expected: tuple[Flag]) -> None:
    """On 32 answers: > 90% right is too easy, r < 0.20 weak, r < 0 or a wrong option above
    the answer puts the key in doubt, a wrong option under 5% (1 of 32) is dead; at exactly
    0.20 and at 31% right nothing is flagged."""
    assert item_flags(32, right, picks, pb)[0] == expected


def test_a_choose_two_item_counts_every_option_each_answer_picked() -> None:
    """A "choose two" answer adds to both options it picked; its two keyed options are the
    right ones for the flags (a wrong option picked more than a keyed one asks to check)."""
    at = datetime(2026, 12, 1, tzinfo=UTC)
    item = Item("pair", "Which two? Choose two.", ("r1", "r2", "w1", "w2"), keyed=2)
    order = (0, 1, 2, 3)  # shown as the deck has them: A, B right
    picked = [frozenset({0, 1})] * 12 + [frozenset({0, 2})] * 20

    def first(user: int, positions: frozenset[int]) -> FirstAnswer:
        right = positions == frozenset({0, 1})
        return FirstAnswer(user, "pair", order, min(positions), right, at, None, at, positions)

    figures = analyse("d", "D", [item], [first(u, p) for u, p in enumerate(picked)], {})
    (only,) = figures.items
    assert only.picks == (32, 12, 20, 0)
    assert only.right == 12
    assert Flag.CHECK_KEY in only.flags
    assert only.dead_options == (3,)
