"""Inputs and checks shared by the parser tests."""

from __future__ import annotations

import re
import zoneinfo
from collections.abc import Callable

from hypothesis import strategies as st

from bot.core.model import PeriodKind
from bot.parsing import (
    ChooseDeck,
    DailyAt,
    DailyOff,
    ListDecks,
    QuizRequest,
    SetTimezone,
    ShowDaily,
    ShowTimezone,
    Usage,
    parse_daily,
    parse_deck,
    parse_leaderboard,
    parse_quiz,
    parse_timezone,
)

PARSERS: list[Callable[[str], object]] = [
    parse_quiz,
    parse_leaderboard,
    parse_timezone,
    parse_daily,
    parse_deck,
]
RESULTS: dict[Callable[[str], object], tuple[type, ...]] = {
    parse_quiz: (QuizRequest, Usage),
    parse_leaderboard: (PeriodKind, Usage),
    parse_timezone: (ShowTimezone, SetTimezone, Usage),
    parse_daily: (ShowDaily, DailyOff, DailyAt, Usage),
    parse_deck: (ListDecks, ChooseDeck, Usage),
}
NASTY = [
    "²", "٣", "５", "０", "-1", "+5", "5 5", "9" * 5000, "A" * 10_000, "\x00", "<b>", "&amp;",
    "\ud800", "\u200b5", "5\u200f", "\u202e5", "../../etc/passwd", "Etc/GMT+5", "<script>",
    "off off", "09:00 <b>", "\ufeff", "\x1b[31m", "</code>", "a\nb",
]  # fmt: skip
# Any code point, lone surrogates included (st.characters leaves them out by default).
ANY_CHAR = st.characters(codec=None, exclude_categories=()) | st.integers(0xD800, 0xDFFF).map(chr)
SPACE = st.text(alphabet=" \t\n\u00a0\u3000", max_size=3)
ZONES = sorted(
    key
    for key in zoneinfo.available_timezones()
    if key not in ("localtime", "posixrules", "Factory")
)
SAFE_TAGS = re.compile(r"</?(?:b|code)>")
ENTITY = re.compile(r"&(?:amp|lt|gt|quot|#x27);")


def assert_safe_usage(usage: Usage) -> None:
    """Sendable Telegram HTML: known tags only, every other <, > and & escaped, valid UTF-8."""
    assert 0 < len(usage.text) <= 4096
    rest = ENTITY.sub("", SAFE_TAGS.sub("", usage.text))
    assert not re.search(r"[<>&]", rest), usage.text
    assert usage.text.count("<code>") == usage.text.count("</code>")
    usage.text.encode("utf-8")


def random_case(word: str) -> st.SearchStrategy[str]:
    return st.tuples(*(st.sampled_from([c.lower(), c.upper()]) for c in word)).map("".join)
