"""Report buttons carry short, typed data: any string parses safely, ours round-trip."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.callback_data import (
    MAX_CALLBACK_BYTES,
    REPORT_DATA,
    AnswerButton,
    NextButton,
    ReasonButton,
    ReportButton,
    ResolveButton,
    SkipCommentButton,
    parse_answer_button,
    parse_next_button,
    parse_report_data,
)
from bot.core.model import ReportReason, ReportStatus

ANY_TEXT = st.text(alphabet=st.characters(codec=None), max_size=200)
IDS = st.integers(1, 10**18 - 1)
REPORT_BUTTONS = st.one_of(
    st.builds(ReportButton, IDS),
    st.builds(ReasonButton, IDS, st.sampled_from(ReportReason)),
    st.builds(SkipCommentButton, IDS),
    st.builds(ResolveButton, IDS, st.sampled_from([ReportStatus.FIXED, ReportStatus.DISMISSED])),
)


@given(ANY_TEXT)
def test_parsing_any_data_returns_a_report_button_or_none(data: str) -> None:
    """Forged data of any shape is a well-formed report button or None, never an error."""
    button = parse_report_data(data)
    if isinstance(button, ResolveButton):
        assert button.status is not ReportStatus.OPEN
    assert button is None or re.match(REPORT_DATA, data)


@given(REPORT_BUTTONS)
def test_report_buttons_round_trip_within_telegrams_limit(
    button: ReportButton | ReasonButton | SkipCommentButton | ResolveButton,
) -> None:
    """Every report button we make fits in 64 bytes, reaches the report handler and parses
    back to itself, and is never taken for an answer or a `Next ▶`."""
    data = button.encode()
    assert 1 <= len(data.encode()) <= MAX_CALLBACK_BYTES
    assert re.match(REPORT_DATA, data)
    assert parse_report_data(data) == button
    assert parse_answer_button(data) is None
    assert parse_next_button(data) is None


@given(IDS, st.integers(0, 7), st.integers(0, 99))
def test_answer_and_next_buttons_are_not_report_buttons(ask_id: int, pos: int, n: int) -> None:
    """The older buttons never reach the report handler."""
    for data in (AnswerButton(ask_id, pos).encode(), NextButton(ask_id, n).encode()):
        assert not re.match(REPORT_DATA, data)
        assert parse_report_data(data) is None


def test_each_reason_has_its_own_code() -> None:
    """Reasons are told apart on the wire."""
    codes = {ReasonButton(1, reason).encode() for reason in ReportReason}
    assert len(codes) == len(ReportReason)


@pytest.mark.parametrize(
    "data",
    ["r:١٢", "r:０1", "rp:1:K", "rp:1:kk", "rs:1 ", "rf:-1", "rx:1", "r:1\n", "rd:1:2", "r:"],
)
def test_lookalikes_are_not_report_buttons(data: str) -> None:
    """Other scripts' digits, unknown codes and trailing junk are not report data."""
    assert parse_report_data(data) is None
