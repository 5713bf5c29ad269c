"""`/exam` arguments: nothing, or a number of questions; anything else gets the usage line."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.parsing import Usage
from bot.parsing.exams import EXAM_USAGE, TOO_BIG, ExamRequest, parse_exam
from bot.playground.botapi import parse_html


@given(st.text(alphabet=st.characters(codec=None), max_size=300))
def test_any_text_parses_to_a_request_or_a_sendable_usage(text: str) -> None:
    """Never raises; a usage line is valid Telegram HTML that ends with the usage."""
    parsed = parse_exam(text)
    if isinstance(parsed, Usage):
        assert parsed.text.endswith(EXAM_USAGE)
        parse_html(parsed.text)
    else:
        assert parsed.size is None or 0 <= parsed.size <= TOO_BIG


@given(st.integers(0, 999_999))
def test_an_ascii_number_is_the_question_count(count: int) -> None:
    """Any count is passed on: whether it fits the deck is the core's to say."""
    assert parse_exam(f"  {count} ") == ExamRequest(count)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", ExamRequest()),
        ("5000", ExamRequest(5000)),
        ("12345678901234567890", ExamRequest(TOO_BIG)),
    ],
)
def test_nothing_or_a_number(text: str, expected: ExamRequest) -> None:
    """No argument is the standard exam; a huge number is read as out of every range."""
    assert parse_exam(text) == expected


@pytest.mark.parametrize("text", ["ten", "5 6", "-5", "５", "²", "1.5", "<b>"])
def test_other_arguments_get_the_usage(text: str) -> None:
    """Words, two numbers, signs, non-ASCII digits and markup: the usage, echoing it safely."""
    assert isinstance(parse_exam(text), Usage)
