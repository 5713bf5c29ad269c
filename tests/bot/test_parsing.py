"""Command argument parsers (bot.parsing): typed requests or safe usage replies, never errors."""

from __future__ import annotations

import re
import zoneinfo
from collections.abc import Callable
from datetime import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot import parsing
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
    arguments_of,
    find_zone,
    parse_daily,
    parse_deck,
    parse_leaderboard,
    parse_quiz,
    parse_time_of_day,
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


# /quiz


@pytest.mark.parametrize(
    ("text", "size"),
    [("", None), ("  ", None), ("5", 5), (" 5 ", 5), ("1", 1), ("20", 20), ("05", 5)],
)
def test_quiz_accepts_nothing_or_a_round_size(text: str, size: int | None) -> None:
    """No argument asks one question; an ASCII number 1–20 asks a round of that size."""
    assert parse_quiz(text) == QuizRequest(size)


@pytest.mark.parametrize(
    "text", ["0", "21", "-1", "+5", "5 5", "²", "٣", "５", "1²", "5.0", "five", "9" * 5000, *NASTY]
)
def test_quiz_rejects_anything_else_with_the_round_usage(text: str) -> None:
    """Non-ASCII digits, out-of-range, signed, several or huge numbers get the usage text."""
    assert parse_quiz(text) == Usage(parsing.ROUND_USAGE)


def test_quiz_round_limit_matches_the_core() -> None:
    """The parser's round limit is the one the round service enforces."""
    from bot.core.rounds import MAX_ROUND

    assert parsing.MAX_ROUND == MAX_ROUND


@settings(max_examples=100)
@given(st.integers(1, parsing.MAX_ROUND), SPACE, SPACE)
def test_quiz_round_sizes_round_trip(size: int, before: str, after: str) -> None:
    """Every valid size, with any surrounding whitespace, parses back to itself."""
    assert parse_quiz(f"{before}{size}{after}") == QuizRequest(size)


@settings(max_examples=100)
@given(st.integers().filter(lambda n: not 1 <= n <= parsing.MAX_ROUND))
def test_quiz_out_of_range_sizes_get_usage(size: int) -> None:
    """Every integer outside 1–MAX_ROUND is refused."""
    assert isinstance(parse_quiz(str(size)), Usage)


# /leaderboard


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("", PeriodKind.WEEK),
        ("week", PeriodKind.WEEK),
        (" MONTH ", PeriodKind.MONTH),
        ("All", PeriodKind.ALL),
    ],
)
def test_leaderboard_accepts_a_period_in_any_case(text: str, kind: PeriodKind) -> None:
    """The period keyword is case-insensitive and defaults to this week."""
    assert parse_leaderboard(text) is kind


@pytest.mark.parametrize("text", ["year", "week month", "wee", "ＷＥＥＫ", *NASTY])
def test_leaderboard_rejects_anything_else(text: str) -> None:
    """Unknown, several or look-alike period words get the leaderboard usage."""
    assert parse_leaderboard(text) == Usage(parsing.LEADERBOARD_USAGE)


@settings(max_examples=50)
@given(st.sampled_from(list(PeriodKind)).flatmap(lambda k: st.tuples(st.just(k), random_case(k))))
def test_leaderboard_periods_round_trip(case: tuple[PeriodKind, str]) -> None:
    """Each period, in any mix of cases, parses to itself."""
    kind, word = case
    assert parse_leaderboard(word) is kind


# /timezone


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Europe/Berlin", "Europe/Berlin"),
        ("europe/berlin", "Europe/Berlin"),
        (" AMERICA/NEW_YORK ", "America/New_York"),
        ("Etc/GMT+5", "Etc/GMT+5"),
        ("utc", "UTC"),
    ],
)
def test_timezone_sets_the_canonical_zone(text: str, key: str) -> None:
    """A tz database key in any case sets that zone under its canonical key."""
    assert parse_timezone(text) == SetTimezone(zoneinfo.ZoneInfo(key))


def test_timezone_alone_shows_the_zone() -> None:
    """No argument (or only whitespace) shows the chat's zone."""
    assert parse_timezone(" \n") == ShowTimezone()


@pytest.mark.parametrize(
    "text", ["../../etc/passwd", "/etc/localtime", "localtime", "Europe/Berlin x", "Mars/Olympus"]
)
def test_timezone_refuses_paths_and_unknown_names(text: str) -> None:
    """Paths, non-zones and unknown names never become a zone."""
    result = parse_timezone(text)
    assert isinstance(result, Usage)
    assert "I don't know the time zone" in result.text
    assert parsing.TIMEZONE_USAGE in result.text


def test_timezone_unknown_name_is_escaped_shortened_and_has_an_example() -> None:
    """The reply names what was written, escaped and cut to ~40 characters, with an example."""
    result = parse_timezone("<b>" + "x" * 100)
    assert isinstance(result, Usage)
    assert "<code>&lt;b&gt;xxx" in result.text
    assert "x" * 50 not in result.text
    assert "Europe/Berlin" in result.text


def test_timezone_suggests_a_close_match() -> None:
    """A near miss of a real zone is answered with that zone."""
    result = parse_timezone("Europe/Berln")
    assert isinstance(result, Usage)
    assert "Did you mean Europe/Berlin?" in result.text


def test_find_zone_does_not_touch_the_filesystem_for_unlisted_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Names not in available_timezones() are never handed to ZoneInfo()."""

    def refuse(key: str) -> None:
        raise AssertionError(f"ZoneInfo({key!r}) called")

    monkeypatch.setattr(zoneinfo, "ZoneInfo", refuse)
    assert find_zone("../../../../etc/passwd") is None
    assert find_zone("Europe/Nowhere") is None


@settings(max_examples=100)
@given(st.sampled_from(ZONES).flatmap(lambda k: st.tuples(st.just(k), random_case(k))), SPACE)
def test_every_zone_round_trips_in_any_case(case: tuple[str, str], space: str) -> None:
    """Every listed zone, in any mix of cases, sets itself under its canonical key."""
    key, written = case
    result = parse_timezone(space + written + space)
    assert isinstance(result, SetTimezone)
    assert result.zone.key == key


# /daily


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", ShowDaily()),
        ("off", DailyOff()),
        (" OFF ", DailyOff()),
        ("9:00", DailyAt(time(9, 0))),
        ("09:00", DailyAt(time(9, 0))),
        ("23:59", DailyAt(time(23, 59))),
        ("00:00", DailyAt(time(0, 0))),
        ("7:05 europe/berlin", DailyAt(time(7, 5), zoneinfo.ZoneInfo("Europe/Berlin"))),
    ],
)
def test_daily_accepts_show_off_and_times(text: str, expected: object) -> None:
    """Show, off (any case), H:MM / HH:MM with an optional zone in any case."""
    assert parse_daily(text) == expected


@pytest.mark.parametrize(
    "text",
    ["24:00", "25:00", "9:60", "9:5", "９:００", "٩:٠٠", "9:00am", "0900", "²:00", "off 9:00"],
)
def test_daily_rejects_invalid_times(text: str) -> None:
    """Out-of-range, non-ASCII-digit or malformed times get the daily usage."""
    result = parse_daily(text)
    assert isinstance(result, Usage)
    assert parsing.DAILY_USAGE in result.text


def test_daily_rejects_too_many_arguments() -> None:
    """A third argument gets the plain daily usage."""
    assert parse_daily("09:00 Europe/Berlin extra") == Usage(parsing.DAILY_USAGE)


def test_daily_names_an_unknown_zone() -> None:
    """An unknown zone after a valid time is named (escaped) along with the usage."""
    result = parse_daily("09:00 <i>Nowhere")
    assert isinstance(result, Usage)
    assert "<code>&lt;i&gt;Nowhere</code>" in result.text
    assert parsing.DAILY_USAGE in result.text


@settings(max_examples=100)
@given(
    st.integers(0, 23),
    st.integers(0, 59),
    st.booleans(),
    st.none() | st.sampled_from(ZONES),
    SPACE,
)
def test_daily_times_round_trip(
    hour: int, minute: int, pad: bool, zone: str | None, space: str
) -> None:
    """Every HH:MM (hour padded or not), with or without a zone, parses back to itself."""
    written = f"{hour:02d}:{minute:02d}" if pad else f"{hour}:{minute:02d}"
    text = f"{space}{written} {zone or ''}{space}"
    expected = DailyAt(time(hour, minute), zoneinfo.ZoneInfo(zone) if zone else None)
    assert parse_daily(text) == expected


@settings(max_examples=200)
@given(st.text(alphabet="0123456789:²٣９", max_size=6))
def test_time_of_day_agrees_with_the_schedule_parser(word: str) -> None:
    """parse_time_of_day accepts exactly what bot.core.schedule.parse_local_time accepts."""
    from bot.core.schedule import parse_local_time

    assert parse_time_of_day(word) == parse_local_time(word)


# /deck


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", ListDecks()),
        ("python", ChooseDeck("python")),
        (" Git-Basics ", ChooseDeck("git-basics")),
        ("a" * 64, ChooseDeck("a" * 64)),
        ("0", ChooseDeck("0")),
    ],
)
def test_deck_accepts_nothing_or_an_id_shape(text: str, expected: object) -> None:
    """No argument lists decks; one id-shaped word (lower-cased) chooses it."""
    assert parse_deck(text) == expected


@pytest.mark.parametrize(
    "text", ["-python", "a" * 65, "py_thon", "pyth\u0131n", "\u212aelvin", "a b", "../x", *NASTY]
)
def test_deck_rejects_other_shapes(text: str) -> None:
    """Words not shaped [a-z0-9][a-z0-9-]{0,63} (ASCII only) get the deck usage."""
    result = parse_deck(text)
    assert isinstance(result, Usage)
    assert parsing.DECK_USAGE in result.text


@settings(max_examples=100)
@given(st.from_regex(r"[a-z0-9][a-z0-9-]{0,63}", fullmatch=True), SPACE)
def test_deck_ids_round_trip(deck_id: str, space: str) -> None:
    """Every id-shaped word parses back to itself."""
    assert parse_deck(space + deck_id + space) == ChooseDeck(deck_id)


# All parsers


@pytest.mark.parametrize(
    ("message", "arguments"),
    [("/quiz", ""), ("/quiz 5", "5"), ("/quiz@QuizBot  5 ", "5 "), ("/daily 9:00 UTC", "9:00 UTC")],
)
def test_arguments_of_returns_the_text_after_the_command(message: str, arguments: str) -> None:
    """Everything after the command word (and its @bot suffix) is the argument text."""
    assert arguments_of(message) == arguments


@pytest.mark.parametrize("parse", PARSERS)
@pytest.mark.parametrize("text", NASTY)
def test_parsers_answer_nasty_input_with_a_result_or_safe_usage(
    parse: Callable[[str], object], text: str
) -> None:
    """Each known-nasty input gives the command's result type or sendable, escaped usage."""
    result = parse(text)
    assert isinstance(result, RESULTS[parse])
    if isinstance(result, Usage):
        assert_safe_usage(result)


TOKENS = st.sampled_from(
    ["5", "20", "09:00", "off", "week", "Europe/Berlin", "<b>", "&", "\x00", "\ud800", "²", ""]
)
ARGUMENTS = (
    st.text()
    | st.text(alphabet=ANY_CHAR)
    | st.lists(TOKENS | st.text(alphabet=ANY_CHAR, max_size=5), max_size=4).map(" ".join)
)


@pytest.mark.parametrize("parse", PARSERS)
@settings(max_examples=150)
@given(text=ARGUMENTS)
def test_parsers_never_raise_and_usage_is_safe(parse: Callable[[str], object], text: str) -> None:
    """Any text, surrogates and controls included: a typed result or safe, short usage."""
    result = parse(text)
    assert isinstance(result, RESULTS[parse])
    if isinstance(result, Usage):
        assert_safe_usage(result)
