"""`/quiz TOPIC`, `/quiz N TOPIC` and `/quiz TOPIC N` (bot.parsing.parse_quiz)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot import parsing
from bot.parsing import QuizRequest, Usage, parse_quiz
from tests.bot.parsing.cases import ANY_CHAR, NASTY, SPACE

# Topic-like words: letters (any script), digits, hyphens; at least one letter.
TOPIC_WORD = st.text(
    st.characters(categories=("L", "N", "Pd"), exclude_characters="\u00b2"),
    min_size=1,
    max_size=12,
).filter(lambda w: any(c.isalpha() for c in w) and w.isprintable() and w.split() == [w])
TOPIC = (
    st.lists(TOPIC_WORD, min_size=1, max_size=3)
    .map(" ".join)
    .filter(lambda t: len(t) <= parsing.TOPIC_LIMIT)
)
SIZE = st.integers(1, parsing.MAX_ROUND)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("nccl", QuizRequest(None, "nccl")),
        ("3 nccl", QuizRequest(3, "nccl")),
        ("nccl 3", QuizRequest(3, "nccl")),
        (" NET ", QuizRequest(None, "NET")),
        ("05 in", QuizRequest(5, "in")),
        ("big  data\n7", QuizRequest(7, "big data")),
        ("x", QuizRequest(None, "x")),
        ("5g", QuizRequest(None, "5g")),
        ("2 5g", QuizRequest(2, "5g")),
    ],
)
def test_quiz_takes_a_topic_before_or_after_the_size(text: str, expected: QuizRequest) -> None:
    """A topic alone, after the size or before it; its words are kept as typed, one space."""
    assert parse_quiz(text) == expected


@pytest.mark.parametrize(
    "text",
    ["0 nccl", "nccl 0", "21 nccl", "nccl 21", "5 5", "²", "-1", "nccl\x00", "a" * 65, "\x1b[31m"],
)
def test_quiz_refuses_bad_sizes_and_topics_that_are_not_names(text: str) -> None:
    """A size out of range, a number that is not one, a control character or an overlong
    name gets the usage text, which mentions topics."""
    assert parse_quiz(text) == Usage(parsing.ROUND_USAGE)
    assert "/topics" in parsing.ROUND_USAGE


@settings(max_examples=200)
@given(TOPIC, SIZE, SPACE, st.booleans())
def test_sizes_and_topics_round_trip_in_either_order(
    topic: str, size: int, space: str, size_first: bool
) -> None:
    """Every size with every topic-shaped name, either order, any spacing, parses back."""
    words = [str(size), topic] if size_first else [topic, str(size)]
    assert parse_quiz(f"{space}{' '.join(words)}{space}") == QuizRequest(size, topic)


@settings(max_examples=200)
@given(TOPIC)
def test_a_topic_alone_round_trips(topic: str) -> None:
    """A topic-shaped name asks one question from that topic."""
    assert parse_quiz(topic) == QuizRequest(None, topic)


@settings(max_examples=300)
@given(st.text(alphabet=ANY_CHAR, max_size=80) | st.sampled_from(NASTY))
def test_any_topic_the_parser_returns_is_a_short_printable_name(text: str) -> None:
    """Whatever is typed, a parsed topic is printable, within the limit, single-spaced and has
    a letter; the size, if any, is in range."""
    result = parse_quiz(text)
    if isinstance(result, Usage):
        return
    if result.size is not None:
        assert 1 <= result.size <= parsing.MAX_ROUND
    if result.topic is not None:
        assert result.topic.isprintable()
        assert 0 < len(result.topic) <= parsing.TOPIC_LIMIT
        assert result.topic == " ".join(result.topic.split())
        assert any(c.isalpha() for c in result.topic)
