"""`/quiz [N] [TOPIC]` and `/leaderboard [month|all]`."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.model import PeriodKind
from bot.parsing.common import NUMBER, Usage, split_words

MAX_ROUND = 20  # = bot.core.rounds.MAX_ROUND (a test pins it); not imported, to stay stdlib-light


# Wording shared with the handlers' usage texts. No '<' or '&': these are HTML already.
ROUND_USAGE = (
    f"Usage: /quiz for one question, /quiz N for a round of N (1–{MAX_ROUND}), "
    "/quiz TOPIC or /quiz N TOPIC for one topic (/topics lists them)."
)


TOPIC_LIMIT = 64  # characters of a topic name after /quiz


LEADERBOARD_USAGE = "Usage: /leaderboard, /leaderboard month or /leaderboard all"


@dataclass(frozen=True)
class QuizRequest:
    """/quiz: `size` None asks one question, N asks a round of N (1 ≤ N ≤ MAX_ROUND);
    `topic` (as typed, words joined by one space) asks only from the topic it names."""

    size: int | None = None
    topic: str | None = None


def _is_topic(text: str) -> bool:
    """Topic-shaped: short, printable, with a letter (so '-1', '²' and '5.0' are not)."""
    return len(text) <= TOPIC_LIMIT and text.isprintable() and any(c.isalpha() for c in text)


def parse_quiz(text: str) -> QuizRequest | Usage:
    """'' → one question; 'N' (1 ≤ N ≤ MAX_ROUND) → a round of N; 'TOPIC', 'N TOPIC' or
    'TOPIC N' → the same from one topic (the core matches the name); else usage. A word of
    ASCII digits is the size, so it comes first or last."""
    words = text.split()
    if not words:
        return QuizRequest()
    size_word: str | None = None
    if NUMBER.fullmatch(words[0]):
        size_word, words = words[0], words[1:]
    elif NUMBER.fullmatch(words[-1]):
        size_word, words = words[-1], words[:-1]
    size = None if size_word is None else int(size_word)
    if size is not None and not 1 <= size <= MAX_ROUND:
        return Usage(ROUND_USAGE)
    if not words:
        return QuizRequest(size)
    topic = " ".join(words)
    if not _is_topic(topic):
        return Usage(ROUND_USAGE)
    return QuizRequest(size, topic)


def parse_leaderboard(text: str) -> PeriodKind | Usage:
    """'' → this week; 'week', 'month' or 'all' (any case) → that period; else usage."""
    words = split_words(text, 1)
    if words is None:
        return Usage(LEADERBOARD_USAGE)
    if not words:
        return PeriodKind.WEEK
    word = words[0].lower()
    for kind in PeriodKind:
        if word == kind.value:
            return kind
    return Usage(LEADERBOARD_USAGE)
