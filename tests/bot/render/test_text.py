"""Repeating user text in HTML replies: bot.render.text.shorten, visible and echo."""

from __future__ import annotations

import html
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.render.text import ECHO_LIMIT, echo, shorten, visible

# Any code point, lone surrogates included (st.characters leaves them out by default).
ANY_CHAR = st.characters(codec=None, exclude_categories=()) | st.integers(0xD800, 0xDFFF).map(chr)
ENTITY = re.compile(r"&(?:amp|lt|gt|quot|#x27);")


def test_shorten_keeps_text_within_the_limit() -> None:
    """Text no longer than the limit comes back unchanged."""
    assert shorten("Europe/Berlin", 13) == "Europe/Berlin"


def test_shorten_cuts_long_text_with_an_ellipsis() -> None:
    """Longer text is cut to `limit` characters, the last one '…'."""
    assert shorten("abcdefgh", 5) == "abcd…"


def test_shorten_drops_trailing_space_before_the_ellipsis() -> None:
    """A cut that ends in spaces does not leave them before the '…'."""
    assert shorten("ab   cdefgh", 5) == "ab…"


@pytest.mark.parametrize(("limit", "expected"), [(0, ""), (-3, ""), (1, "…")])
def test_shorten_handles_tiny_and_negative_limits(limit: int, expected: str) -> None:
    """Limits below 2 neither raise nor exceed the limit."""
    assert shorten("abc", limit) == expected


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("<b>", "&lt;b&gt;"),
        ("&amp;", "&amp;amp;"),
        ("\x00", "\ufffd"),
        ("\ud800", "\ufffd"),
        ("a\u200bb", "a\ufffdb"),
        ("\u202egnp.exe", "\ufffdgnp.exe"),
        ("  a \n\t b  ", "a b"),
        ("a\u2028b", "a b"),
        ("'\"", "&#x27;&quot;"),
        ("👩\u200d💻", "👩\u200d💻"),
        ("", ""),
    ],
)
def test_echo_escapes_and_makes_hidden_characters_visible(raw: str, shown: str) -> None:
    """HTML is escaped, whitespace is one space, controls/surrogates/bidi marks become '�'."""
    assert echo(raw) == shown


def test_echo_shortens_huge_text() -> None:
    """10,000 characters echo as at most ECHO_LIMIT, ending in '…'."""
    assert echo("A" * 10_000) == "A" * (ECHO_LIMIT - 1) + "…"


def test_echo_marks_a_cut_even_when_hidden_runs_collapse() -> None:
    """A long run of NULs followed by text still shows that the text went on."""
    assert echo("\x00" * 10_000 + "abc") == "\ufffd…"


def test_visible_collapses_runs() -> None:
    """Runs of whitespace or of hidden characters show as one space or one '�'."""
    assert visible("a\x00\x01\x02b  \t c") == "a\ufffdb c"


@settings(max_examples=300)
@given(st.text(alphabet=ANY_CHAR), st.integers(0, 60))
def test_echo_is_always_short_safe_html_and_sendable(raw: str, limit: int) -> None:
    """Any text echoes as ≤ limit characters (unescaped) with no markup and valid UTF-8."""
    shown = echo(raw, limit)
    assert len(html.unescape(shown)) <= limit
    assert not re.search(r"[<>&]", ENTITY.sub("", shown))
    shown.encode("utf-8")
    assert "\n" not in shown


@settings(max_examples=200)
@given(st.text(alphabet=st.characters(codec="ascii", categories=["L", "N", "P"]), max_size=40))
def test_echo_repeats_short_printable_text_verbatim(raw: str) -> None:
    """Short printable ASCII comes back as itself, only HTML-escaped."""
    assert echo(raw) == html.escape(raw)


@settings(max_examples=200)
@given(st.text(alphabet=ANY_CHAR), st.integers(-5, 60))
def test_shorten_never_exceeds_the_limit(raw: str, limit: int) -> None:
    """shorten returns a prefix (plus '…') of at most max(limit, 0) characters."""
    short = shorten(raw, limit)
    assert len(short) <= max(limit, 0)
    assert raw.startswith(short.removesuffix("…")) or short == raw
