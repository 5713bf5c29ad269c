"""The one table of callback-data prefixes: no two button types share one, and every button
type refuses data over Telegram's 64 bytes when it encodes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.callback_data import (
    MAX_CALLBACK_BYTES,
    AnswerButton,
    CallbackDataTooLongError,
    ExamButton,
    ForgetButton,
    NextButton,
    Prefix,
    QuizMeButton,
    ReasonButton,
    ReportButton,
    ResolveButton,
    SkipCommentButton,
)
from bot.callback_data.prefixes import encoded, fields_of
from bot.core.exams.actions import Choose, Finish
from bot.core.model import ReportReason, ReportStatus

IDS = st.integers(1, 10**18 - 1)


def test_no_two_button_types_share_a_prefix() -> None:
    """Prefixes are distinct, short, and none is another's prefix followed by the separator."""
    values = [p.value for p in Prefix]
    assert len(values) == len(set(values))
    assert all(1 <= len(v) <= 8 and v.isascii() for v in values)


@given(IDS, IDS, st.integers(0, 7))
def test_every_button_type_encodes_within_64_bytes_and_parses_back(
    ask: int, other: int, position: int
) -> None:
    """Ids of up to 18 digits (every id the database can give) fit; each parses back as sent."""
    buttons = [
        AnswerButton(ask, position).encode(),
        NextButton(ask, 20).encode(),
        ReportButton(ask).encode(),
        ReasonButton(ask, ReportReason.TYPO).encode(),
        SkipCommentButton(other).encode(),
        ResolveButton(other, ReportStatus.FIXED).encode(),
        ExamButton(ask, Choose(199, position)).encode(),
        ExamButton(other, Finish()).encode(),
        QuizMeButton().encode(),
        ForgetButton(confirm=True).encode(),
    ]
    assert all(1 <= len(data.encode()) <= MAX_CALLBACK_BYTES for data in buttons)


@given(st.text(min_size=60, max_size=200))
def test_data_over_64_bytes_is_refused_when_it_is_encoded(field: str) -> None:
    """Whatever a button would carry, more than Telegram's 64 bytes never leaves the encoder."""
    if len(f"{Prefix.REPORT.value}:{field}".encode()) <= MAX_CALLBACK_BYTES:
        return
    with pytest.raises(CallbackDataTooLongError):
        encoded(Prefix.REPORT, field)


@given(st.text(max_size=80))
def test_fields_of_any_text_never_raises(data: str) -> None:
    """Any press data (forged included) either has a prefix's fields or is None."""
    for prefix in Prefix:
        found = fields_of(prefix, data)
        assert found is None or isinstance(found, list)
