"""The delivery ledger's writes inside a transaction."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

from bot.core.model import PushStatus, SlotDecision
from storage.sql.conn import Conn
from storage.sql.rows import to_ms

PUSH_KEY = "WHERE chat_id = ? AND local_day = ?"


class DailyWrites:
    _conn: Conn

    async def record_slots(self, decisions: Sequence[SlotDecision], now: datetime) -> None:
        at = to_ms(now)
        await self._conn.executemany(
            "INSERT INTO daily_pushes (chat_id, local_day, slot_at, status, created_at, "
            "done_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (chat_id, local_day) DO NOTHING",
            [
                (
                    d.chat_id,
                    d.local_day.isoformat(),
                    to_ms(d.slot_at),
                    d.status.value,
                    at,
                    None if d.status is PushStatus.PENDING else at,
                )
                for d in decisions
            ],
        )
        await self._conn.executemany(
            "UPDATE daily_schedules SET next_slot_at = ?, next_day = ? WHERE chat_id = ?",
            [(to_ms(d.next_slot_at), d.next_day.isoformat(), d.chat_id) for d in decisions],
        )

    async def mark_push_sent(
        self, chat_id: int, local_day: date, ask_id: int, message_id: int, now: datetime
    ) -> None:
        await self._conn.execute(
            "UPDATE asks SET message_id = ?, posted_at = ? WHERE id = ?",
            (message_id, to_ms(now), ask_id),
        )
        await self._conn.execute(
            "UPDATE daily_pushes SET status = 'sent', ask_id = ?, message_id = ?, done_at = ?, "
            f"attempts = attempts + 1 {PUSH_KEY}",
            (ask_id, message_id, to_ms(now), chat_id, local_day.isoformat()),
        )

    async def push_attempt(
        self, chat_id: int, local_day: date, error: str, *, final: bool, now: datetime
    ) -> None:
        await self._conn.execute(
            "UPDATE daily_pushes SET attempts = attempts + 1, last_error = ?, "
            "status = CASE WHEN ? = 1 THEN 'failed' ELSE status END, "
            f"done_at = CASE WHEN ? = 1 THEN ? ELSE done_at END {PUSH_KEY}",
            (error, int(final), int(final), to_ms(now), chat_id, local_day.isoformat()),
        )
