"""What an answer press means: valid or not, new, repeated or too late."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.model import Answer, Ask
from content.models import Question


@dataclass(frozen=True)
class Invalid:
    """The press does not refer to a question this chat can answer (forged or stale)."""

    reason: str


@dataclass(frozen=True)
class Recorded:
    """The answer counted and is committed."""

    ask: Ask
    question: Question
    answer: Answer


@dataclass(frozen=True)
class AlreadyAnswered:
    """The user answered this ask before; their first answer stands."""

    ask: Ask
    question: Question
    answer: Answer


@dataclass(frozen=True)
class TooLate:
    """The question closed before the press; nothing was recorded."""

    ask: Ask
    question: Question


AnswerResult = Invalid | Recorded | AlreadyAnswered | TooLate


def is_correct(ask: Ask, position: int) -> bool:
    """Whether the option shown at `position` is the right one."""
    return ask.option_order[position] == 0


def are_correct(ask: Ask, picked: frozenset[int]) -> bool:
    """Whether the positions picked for a "choose N" question are exactly the right ones
    (all or nothing)."""
    return picked == ask.right_positions
