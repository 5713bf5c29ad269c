"""Chats and the people in them, as the core sees them."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


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
class ChatSettings:
    id: int
    kind: ChatKind
    timezone: str | None
    deck_id: str | None
    active: bool
