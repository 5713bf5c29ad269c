"""Keeps one member from turning a group into a megaphone: a few commands a minute each.

Counted in the database, so a member's allowance is the same with one replica or several.
Private chats answer freely.
"""

from __future__ import annotations

from datetime import timedelta
from enum import Enum

from bot.core.clock import Clock
from bot.core.model import ChatRef
from bot.core.ports import AllowanceStore

LIMIT = 6
WINDOW = timedelta(seconds=60)


class Verdict(Enum):
    ALLOW = "allow"
    WARN = "warn"  # over the limit: say so once
    IGNORE = "ignore"  # still over it: stay quiet


class CommandAllowance:
    def __init__(
        self, *, store: AllowanceStore, clock: Clock, limit: int = LIMIT, window: timedelta = WINDOW
    ) -> None:
        self._store = store
        self._clock = clock
        self._limit = limit
        self._window_ms = int(window.total_seconds() * 1000)

    async def check(self, chat: ChatRef, user_id: int) -> Verdict:
        """Count the member's command; whether to answer it, warn once, or stay quiet."""
        if not chat.kind.is_group:
            return Verdict.ALLOW
        used = await self._store.count_command(chat.id, user_id, self._clock.now(), self._window_ms)
        if used <= self._limit:
            return Verdict.ALLOW
        return Verdict.WARN if used == self._limit + 1 else Verdict.IGNORE
