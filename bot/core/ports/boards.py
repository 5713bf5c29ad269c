"""Leaderboards, and the period bounds a chat's boards are recounted with."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Protocol

from bot.core.model import (
    BoardRow,
    BoardStanding,
    PeriodKind,
)

# (kind, moment) -> the [start, end) of the period of `kind` that `moment` falls in, in the
# chat's time zone; the core passes it to recount a chat's boards.
PeriodBounds = Callable[[PeriodKind, datetime], tuple[datetime, datetime]]


class BoardStore(Protocol):
    async def top(
        self, chat_id: int, kind: PeriodKind, start: datetime, limit: int
    ) -> list[BoardRow]:
        """Best first: correct answers, then accuracy, then who reached their count first."""
        ...

    async def standing(
        self, chat_id: int, kind: PeriodKind, start: datetime, user_id: int
    ) -> BoardStanding | None: ...

    async def rebuild_chat(self, chat_id: int, bounds: PeriodBounds) -> None:
        """Recount the chat's boards from its answers with new period bounds (time zone)."""
        ...
