"""Command argument parsers (bot.parsing): typed requests or safe usage replies, never errors."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot import parsing
from bot.core.model import PeriodKind
from bot.parsing import (
    ChooseDeck,
    ListDecks,
    QuizRequest,
    Usage,
    arguments_of,
    parse_deck,
    parse_leaderboard,
    parse_quiz,
)
from tests.bot.parsing.cases import (
    ANY_CHAR,
    NASTY,
    PARSERS,
    RESULTS,
    SPACE,
    assert_safe_usage,
    random_case,
)

# /quiz


@pytest.mark.parametrize(
    ("text", "size"),
    [("", None), ("  ", None), ("5", 5), (" 5 ", 5), ("1", 1), ("20", 20), ("05", 5)],
)
def test_quiz_accepts_nothing_or_a_round_size(text: str, size: int | None) -> None:
    """No argument asks one question; an ASCII number 1–20 asks a round of that size."""
    assert parse_quiz(text) == QuizRequest(size)


@pytest.mark.parametrize(
    "text",
    ["0", "21", "-1", "+5", "5 5", "²", "٣", "５", "1²", "5.0", "9" * 5000, "\x00", "\ud800"],
)
def test_quiz_rejects_anything_else_with_the_round_usage(text: str) -> None:
    """Non-ASCII digits, out-of-range, signed, several or huge numbers get the usage text
    (words with a letter are topic names: tests/bot/parsing/test_topics.py)."""
    assert parse_quiz(text) == Usage(parsing.ROUND_USAGE)


def test_quiz_round_limit_matches_the_core() -> None:
    """The parser's round limit is the one the round service enforces."""
    from bot.core.rounds.service import MAX_ROUND

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
