"""Exam button data is user input too: any string parses to a button or None; ours round-trip."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.callback_data import MAX_CALLBACK_BYTES, parse_answer_button, parse_report_data
from bot.callback_data.exams import EXAM_DATA, ExamButton, parse_exam_button
from bot.core.exams.actions import (
    Choose,
    ExamAction,
    Finish,
    FinishNow,
    Flag,
    Go,
    Resume,
    ShowMiss,
    ShowResult,
)

ANY_TEXT = st.text(alphabet=st.characters(codec=None), max_size=200)
IDS = st.integers(1, 10**18 - 1)
INDEXES = st.integers(0, 200)
ACTIONS: st.SearchStrategy[ExamAction] = st.one_of(
    st.builds(Choose, INDEXES, st.integers(0, 7)),
    st.builds(Go, INDEXES),
    st.builds(Flag, INDEXES),
    st.builds(ShowMiss, INDEXES),
    st.sampled_from([Finish(), FinishNow(), Resume(), ShowResult()]),
)


@given(ANY_TEXT)
def test_parsing_any_data_returns_an_exam_button_or_none(data: str) -> None:
    """Forged data of any shape is a well-formed exam button or None, never an error."""
    button = parse_exam_button(data)
    assert button is None or button.exam_id >= 1
    if button is not None:
        assert EXAM_DATA.match(data)
        assert button.encode() == data


@given(IDS, ACTIONS)
def test_exam_buttons_round_trip_within_telegrams_limit(exam_id: int, action: ExamAction) -> None:
    """Every exam button we make fits in 64 bytes, parses back to itself, and is no other's."""
    data = ExamButton(exam_id, action).encode()
    assert len(data.encode()) <= MAX_CALLBACK_BYTES
    assert parse_exam_button(data) == ExamButton(exam_id, action)
    assert parse_answer_button(data) is None
    assert parse_report_data(data) is None


@pytest.mark.parametrize(
    "data",
    [
        "xa:١٢:0:0",
        "xa:12:٠:0",
        "xg:１:1",
        "xa:0:1:1",
        "xa:1:01:1",
        "xa:1:1:8",
        "xe:1:2",
        "xz:1",
        "x:1",
    ],
)
def test_lookalikes_and_near_misses_are_not_exam_data(data: str) -> None:
    """Other scripts' digits, leading zeros, a ninth option, extra or unknown parts: None."""
    assert parse_exam_button(data) is None


def test_buttons_outside_what_we_parse_are_never_made() -> None:
    """A page past the most an exam has cannot be encoded (it would not parse back)."""
    with pytest.raises(ValueError, match="not valid exam button data"):
        ExamButton(1, Go(1000)).encode()
