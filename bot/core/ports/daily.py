"""Daily schedules and the delivery ledger."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Protocol

from bot.core.model import (
    Ask,
    AskDraft,
    Push,
    Schedule,
    SlotDecision,
)


class DailyStore(Protocol):
    async def schedule(self, chat_id: int) -> Schedule | None: ...

    async def set_schedule(
        self, chat_id: int, local_time: str, next_slot_at: datetime, next_day: date, now: datetime
    ) -> None: ...

    async def disable_schedule(self, chat_id: int, now: datetime) -> bool: ...

    async def due_schedules(self, now: datetime, limit: int) -> list[tuple[Schedule, str | None]]:
        """Enabled schedules whose next slot has come, with their chat's time zone key."""
        ...

    async def record_slots(self, decisions: Sequence[SlotDecision], now: datetime) -> None: ...

    async def pending_pushes(self, limit: int) -> list[Push]: ...

    async def claim_pushes(
        self, replica: str, now: datetime, until: datetime, limit: int
    ) -> list[Push]:
        """See `bot.core.ports.replicas.ReplicaStore.claim_pushes`."""
        ...

    async def push_for(self, chat_id: int, local_day: date) -> Push | None: ...

    async def attach_push_ask(self, push: Push, draft: AskDraft) -> Ask:
        """Create the push's ask and note it on the ledger row, together."""
        ...

    async def mark_push_sent(self, push: Push, ask_id: int, message_id: int, now: datetime) -> None:
        """The ask gets its message id and the ledger row is closed, together."""
        ...

    async def mark_push_attempt(
        self, push: Push, error: str, *, final: bool, now: datetime
    ) -> None: ...
