"""The chats' settings and life."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from bot.core.model import (
    ChatRef,
    ChatSettings,
)
from bot.core.ports.boards import PeriodBounds


class ChatStore(Protocol):
    async def upsert_chat(self, chat: ChatRef, now: datetime) -> None: ...

    async def chat(self, chat_id: int) -> ChatSettings | None: ...

    async def set_timezone(self, chat_id: int, zone_key: str) -> None: ...

    async def set_deck(self, chat_id: int, deck_id: str) -> None: ...

    async def set_active(self, chat_id: int, active: bool) -> bool:
        """True when that changed anything."""
        ...

    async def move_chat(
        self, old_id: int, new_id: int, bounds: PeriodBounds, now: datetime
    ) -> bool:
        """Move everything keyed by `old_id` to `new_id` in one transaction (group →
        supergroup), whether or not `new_id` was seen first; boards of `new_id` are recounted
        with `bounds`. Idempotent: False when there was nothing to move."""
        ...
