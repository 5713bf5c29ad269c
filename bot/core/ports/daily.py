"""Daily schedules and the delivery ledger (one row per chat and local day)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Protocol

from bot.core.model import Ask, AskDraft, Push, Schedule, SlotDecision


class DailyWrites(Protocol):
    """The ledger's part of `Writes` (one transaction)."""

    async def record_slots(self, decisions: Sequence[SlotDecision], now: datetime) -> None:
        """Write the ledger rows (a row that exists already is kept as it is) and advance the
        schedules."""
        ...

    async def mark_push_sent(
        self, chat_id: int, local_day: date, ask_id: int, message_id: int, now: datetime
    ) -> None:
        """The question is out: the ask gets its message id and the ledger row is closed."""
        ...

    async def push_attempt(
        self, chat_id: int, local_day: date, error: str, *, final: bool, now: datetime
    ) -> None:
        """Count a failed attempt on the ledger row; `final`: the push failed for good."""
        ...


class DailyStore(Protocol):
    async def schedule(self, chat_id: int) -> Schedule | None: ...

    async def set_schedule(
        self,
        chat_id: int,
        local_time: str,
        next_slot_at: datetime,
        next_day: date,
        now: datetime,
        thread_id: int | None = None,
    ) -> None:
        """Turn the chat's daily question on (at `local_time`, into forum topic `thread_id`)."""
        ...

    async def disable_schedule(self, chat_id: int, now: datetime) -> bool: ...

    async def due_schedules(self, now: datetime, limit: int) -> list[tuple[Schedule, str | None]]:
        """Enabled schedules whose next slot has come, with their chat's time zone key."""
        ...

    async def pending_pushes(self, limit: int) -> list[Push]: ...

    async def push_for(self, chat_id: int, local_day: date) -> Push | None: ...

    async def attach_push_ask(self, push: Push, draft: AskDraft) -> Ask:
        """Create the push's ask and note it on the ledger row, together."""
        ...

    async def mark_push_attempt(
        self, push: Push, error: str, *, final: bool, now: datetime
    ) -> None: ...
