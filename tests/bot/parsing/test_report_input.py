"""Report input is user input: deep-link payloads and comments parse safely, whatever they are."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.callback_data.links import START_PARAMETER_LIMIT, ReportLink, link_url, parse_report_link
from bot.parsing.reports import COMMENT_LIMIT, clean_comment

# Any code point, lone surrogates included (st.characters leaves them out by default).
ANY_CHAR = st.characters(codec=None, exclude_categories=()) | st.integers(0xD800, 0xDFFF).map(chr)
ANY_TEXT = st.text(ANY_CHAR, max_size=300)
TELEGRAM_START_PARAMETER = re.compile(r"[A-Za-z0-9_-]{1,64}")


@given(ANY_TEXT)
def test_any_start_argument_is_a_report_link_or_none(arguments: str) -> None:
    """Whatever follows /start, the parser returns a well-formed link or None, never an error."""
    link = parse_report_link(arguments)
    assert link is None or 1 <= link.ask_id < 10**18


@given(st.integers(1, 10**18 - 1), st.sampled_from(["", " ", "\n", "  \t"]))
def test_report_links_round_trip_within_telegrams_start_parameter(ask_id: int, pad: str) -> None:
    """Every link we make is a valid start parameter and parses back to itself."""
    link = ReportLink(ask_id)
    payload = link.payload()
    assert TELEGRAM_START_PARAMETER.fullmatch(payload)
    assert len(payload) <= START_PARAMETER_LIMIT
    assert parse_report_link(f"{pad}{payload}{pad}") == link
    assert link_url("quiz_bot", link) == f"https://t.me/quiz_bot?start={payload}"


@pytest.mark.parametrize(
    "arguments",
    [
        "",
        "report-",
        "report-0",
        "report-007",
        "report--1",
        "report-1 report-2",
        "report-1 extra",
        "Report-1",
        "report-١٢",
        "report-１",
        "report-1\u200b",
        "report-1234567890123456789",
        "report_1",
        "hello",
    ],
)
def test_anything_but_a_report_link_is_not_one(arguments: str) -> None:
    """Lookalike digits, leading zeros, extra words and other payloads are not report links."""
    assert parse_report_link(arguments) is None


@given(ANY_TEXT)
def test_any_comment_cleans_to_storable_visible_text(text: str) -> None:
    """A cleaned comment encodes as UTF-8, fits the limit, keeps at most one empty line in a
    row and has no control or hidden characters but line breaks."""
    comment = clean_comment(text)
    if comment is None:
        return
    comment.encode("utf-8")
    assert 0 < len(comment) <= COMMENT_LIMIT
    assert comment == comment.strip()
    assert "\n\n\n" not in comment
    for char in comment:
        category = unicodedata.category(char)
        assert char == "\n" or category not in ("Cc", "Cs"), repr(char)


@given(ANY_TEXT, st.integers(1, 60))
def test_comments_never_exceed_their_limit(text: str, limit: int) -> None:
    """Whatever the text and the limit, a comment fits; one that was cut ends in '…'."""
    comment = clean_comment(text, limit)
    assert comment is None or len(comment) <= limit
    if comment is not None and len(text) > 8 * limit + 8:
        assert comment.endswith("…")


@pytest.mark.parametrize(
    ("text", "cleaned"),
    [
        ("  B is right too  ", "B is right too"),
        ("line one\r\n\n\n\nline two", "line one\n\nline two"),
        ("tab\there", "tab here"),
        ("nul\x00and\ud800", "nul\ufffdand\ufffd"),
        ("<b>bold</b> & co", "<b>bold</b> & co"),
        ("👩\u200d💻 ok", "👩\u200d💻 ok"),
        (" \n \t ", None),
        ("", None),
    ],
)
def test_comments_keep_lines_and_show_what_was_hidden(text: str, cleaned: str | None) -> None:
    """Line breaks stay (blank runs shrink), other whitespace is a space, hidden characters '�';
    HTML is kept as typed (it is escaped when shown)."""
    assert clean_comment(text) == cleaned


def test_a_huge_comment_is_cut_cheaply_and_says_so() -> None:
    """Megabytes of text are cut to the limit without cleaning all of it."""
    comment = clean_comment("x" * 5_000_000)
    assert comment is not None
    assert len(comment) == COMMENT_LIMIT
    assert comment.endswith("…")
