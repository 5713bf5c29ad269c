"""Questions asked in a chat (asks), the answers to them, and a chat's pass through its deck."""

from __future__ import annotations

import string
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from bot.core.model.chats import Player
from bot.core.model.memory import Card

LETTERS = string.ascii_uppercase


def letter(position: int) -> str:
    """The letter shown for a display position: 0 → A, 1 → B, …"""
    return LETTERS[position]


def letters(positions: frozenset[int]) -> str:
    """Display positions as letters, in order: {2, 0} → "A, C"."""
    return ", ".join(letter(position) for position in sorted(positions))


def as_mask(positions: frozenset[int]) -> int:
    """Display positions as a bitmask (stored for "choose N" answers): {0, 2} → 0b101."""
    return sum(1 << position for position in positions)


def from_mask(mask: int) -> frozenset[int]:
    """The display positions of a bitmask: 0b101 → {0, 2}."""
    return frozenset(position for position in range(mask.bit_length()) if mask >> position & 1)


class AskOrigin(StrEnum):
    """Why a question was asked: `/quiz`, a round (`/quiz N`) or a daily push."""

    QUIZ = "quiz"
    ROUND = "round"
    DAILY = "daily"


@dataclass(frozen=True)
class Ask:
    """One question sent to one chat, with the option order it was shown in."""

    id: int
    chat_id: int
    thread_id: int | None
    message_id: int | None
    deck_id: str
    question_id: str
    pass_no: int
    # option_order[position] is the index of the option shown at that position; the right
    # options are the indexes below `picks` (0 alone for a one-answer question).
    option_order: tuple[int, ...]
    asked_at: datetime
    # None for a question that takes a single answer and closes on it (private chats).
    closes_at: datetime | None
    closed_at: datetime | None
    round_id: int | None = None
    origin: AskOrigin = AskOrigin.QUIZ
    # The question's content hash when it was asked (None: asked before hashes were kept).
    question_hash: str | None = None
    # How many options it takes: 1, or N for a "choose N" question.
    picks: int = 1

    @property
    def right_position(self) -> int:
        """Where the (first) right option is shown."""
        return self.option_order.index(0)

    @property
    def right_positions(self) -> frozenset[int]:
        """Where the right options are shown."""
        return frozenset(p for p, option in enumerate(self.option_order) if option < self.picks)

    @property
    def is_multi(self) -> bool:
        """A "choose N" question: options are picked, then submitted."""
        return self.picks > 1

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None


@dataclass(frozen=True)
class PassState:
    """Which pass through a deck a chat is on and which questions it has had in it."""

    pass_no: int
    asked: frozenset[str]
    last_asked: str | None = None


@dataclass(frozen=True)
class Answer:
    ask_id: int
    user_id: int
    position: int
    correct: bool
    answered_at: datetime
    # Set by `Writes.record_answer` on the answer it stored: the learner's card of the
    # question as it was before this answer (None: never missed), read by the same statement.
    card_before: Card | None = None
    # A "choose N" answer: every position submitted (`position` is the first of them).
    picked: frozenset[int] | None = None

    @property
    def positions(self) -> frozenset[int]:
        """The positions answered: the one pressed, or those submitted."""
        return self.picked if self.picked is not None else frozenset({self.position})


@dataclass(frozen=True)
class UserStats:
    answered: int
    correct: int

    @property
    def accuracy(self) -> float:
        return self.correct / self.answered if self.answered else 0.0


@dataclass(frozen=True)
class Tally:
    """How a closed question went in a group."""

    answered: int
    correct: int
    first_right: Player | None


@dataclass(frozen=True)
class AskDraft:
    """A question chosen for a chat, before it is stored."""

    chat_id: int
    thread_id: int | None
    deck_id: str
    question_id: str
    pass_no: int
    option_order: tuple[int, ...]
    asked_at: datetime
    closes_at: datetime | None
    origin: AskOrigin = AskOrigin.QUIZ
    round_id: int | None = None
    question_hash: str | None = None
    picks: int = 1
