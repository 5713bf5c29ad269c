"""The outbox: owed messages recorded in a use case's transaction, and read by the sender."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Protocol

from bot.core.model import Effect, NewEffect


class OutboxWrites(Protocol):
    """The outbox's part of `Writes` (one transaction)."""

    async def enqueue(
        self, effect: NewEffect, now: datetime, not_before: datetime | None = None
    ) -> bool:
        """Record a message the bot owes, to be sent after the commit (not before
        `not_before`, when given); False when an effect with its `dedupe_key` exists already
        (nothing is recorded then)."""
        ...

    async def enqueue_many(self, effects: Sequence[NewEffect], now: datetime) -> None:
        """Record many (a fan-out's); those whose `dedupe_key` exists are skipped."""
        ...

    async def effect_done(self, effect: Effect, now: datetime) -> None:
        """The effect ended: sent, settled, or nothing left to show."""
        ...

    async def effect_retry(self, effect: Effect, error: str, not_before: datetime) -> None:
        """Count a failed attempt; the effect stays pending, not tried before `not_before`."""
        ...

    async def effect_failed(self, effect: Effect, error: str, now: datetime) -> None:
        """Give up on an effect for good (counted as an attempt)."""
        ...

    async def drop_chat_effects(self, chat_id: int, error: str, now: datetime) -> list[Effect]:
        """Fail every pending effect of a chat the bot can no longer write to; those failed."""
        ...

    def after_commit(self, callback: Callable[[], None]) -> None:
        """Call `callback` once the transaction has committed (never if it rolls back)."""
        ...


class EffectStore(Protocol):
    async def due_effect_chats(self, now: datetime, limit: int, *, bulk: bool = False) -> list[int]:
        """Chats with pending effects that may be tried now, the most overdue first: chats
        with an interactive one, or (`bulk`) chats with bulk ones only."""
        ...

    async def pending_effects(self, chat_id: int, limit: int) -> list[Effect]:
        """The chat's pending effects, oldest first, each with when it may be tried next."""
        ...

    async def forget_settled_effects_before(self, before: datetime) -> int:
        """Delete the effects that ended (done or failed) before `before`; how many."""
        ...
