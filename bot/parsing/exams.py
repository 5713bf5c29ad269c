"""`/exam` arguments (beside `bot.parsing`, with the same rules): '' or a question count.

Whether the count fits the deck is the core's to say (it knows the deck): any ASCII number is
passed on, so `/exam 5000` gets "this deck has 1–N questions" rather than a usage line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.parsing import Usage
from bot.render.text import echo

EXAM_USAGE = "Usage: /exam for a practice exam, or /exam N for one of N questions."
_COUNT = re.compile(r"[0-9]{1,6}", re.ASCII)
TOO_BIG = 999_999  # what a longer number is read as (out of every deck's range)


@dataclass(frozen=True)
class ExamRequest:
    """/exam: `size` None is the deck's standard exam, N asks for N questions."""

    size: int | None = None


def parse_exam(text: str) -> ExamRequest | Usage:
    """'' → the standard exam; one ASCII number → that many questions; anything else → usage."""
    words = text.split(maxsplit=1)
    if not words:
        return ExamRequest()
    word = words[0]
    if len(words) > 1 or not word.isascii() or not word.isdigit():
        shown = echo(text.strip())
        return Usage(f"<code>{shown}</code> is not a number of questions.\n{EXAM_USAGE}")
    return ExamRequest(int(word) if _COUNT.fullmatch(word) else TOO_BIG)
