"""Domain types shared by the quiz core and the storage layer."""

from __future__ import annotations

import string
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

LETTERS = string.ascii_uppercase


def letter(position: int) -> str:
    """The letter shown for a display position: 0 → A, 1 → B, …"""
    return LETTERS[position]


def full_name(first_name: str, last_name: str | None) -> str:
    """How a user is named in texts: first and last name, as Telegram shows them."""
    return f"{first_name} {last_name}" if last_name else first_name


class ChatKind(StrEnum):
    PRIVATE = "private"
    GROUP = "group"
    SUPERGROUP = "supergroup"
    CHANNEL = "channel"

    @property
    def is_group(self) -> bool:
        return self in (ChatKind.GROUP, ChatKind.SUPERGROUP)


@dataclass(frozen=True)
class ChatRef:
    """The chat a command or press came from."""

    id: int
    kind: ChatKind
    title: str | None = None


@dataclass(frozen=True)
class Player:
    """A Telegram user as far as scores are concerned."""

    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None

    @property
    def display_name(self) -> str:
        return full_name(self.first_name, self.last_name)


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
    # option_order[position] is the index of the option shown at that position;
    # option index 0 is always the right answer.
    option_order: tuple[int, ...]
    asked_at: datetime
    # None for a question that takes a single answer and closes on it (private chats).
    closes_at: datetime | None
    closed_at: datetime | None
    round_id: int | None = None

    @property
    def right_position(self) -> int:
        return self.option_order.index(0)

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
