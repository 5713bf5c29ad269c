"""The outbox: owed messages waiting to be sent."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from bot.core.model import (
    Effect,
)


class EffectStore(Protocol):
    async def due_effect_chats(self, now: datetime, limit: int) -> list[int]:
        """Chats with pending effects that may be tried now."""
        ...

    async def pending_effects(self, chat_id: int, limit: int) -> list[Effect]:
        """The chat's pending effects, oldest first, each with when it may be tried next."""
        ...

    async def effect_done(
        self,
        effect: Effect,
        now: datetime,
        message_id: int | None,
        closes_at: datetime | None = None,
    ) -> None:
        """Mark the effect done; for a QUESTION, the ask gets `message_id` (and, when given,
        its deadline `closes_at`) in the same commit."""
        ...

    async def effect_retry(self, effect: Effect, error: str, not_before: datetime) -> None: ...

    async def effect_failed(self, effect: Effect, error: str, now: datetime) -> None: ...

    async def drop_chat_effects(self, chat_id: int, error: str, now: datetime) -> int:
        """Fail every pending effect of a chat the bot can no longer write to."""
        ...
