"""Daily schedules and the delivery ledger."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

import aiosqlite

from storage.db import Database
from storage.repository import from_ms, to_ms


@dataclass(frozen=True)
class Schedule:
    chat_id: int
    local_time: str
    enabled: bool
    next_slot_at: datetime
    next_day: date


@dataclass(frozen=True)
class Push:
    """A ledger row: the daily question owed to (or delivered to) a chat for a local day."""

    chat_id: int
    local_day: date
    slot_at: datetime
    status: str
    ask_id: int | None
    message_id: int | None
    attempts: int


@dataclass(frozen=True)
class SlotDecision:
    """What to do about one due schedule: the ledger row to write and the next slot."""

    chat_id: int
    local_day: date
    slot_at: datetime
    status: str  # 'pending' (send it) or 'skipped' (too late)
    next_slot_at: datetime
    next_day: date


_SCHEDULE_COLUMNS = "s.chat_id, s.local_time, s.enabled, s.next_slot_at, s.next_day"
_PUSH_COLUMNS = "chat_id, local_day, slot_at, status, ask_id, message_id, attempts"


def _schedule(row: aiosqlite.Row) -> Schedule:
    return Schedule(row[0], row[1], bool(row[2]), from_ms(row[3]), date.fromisoformat(row[4]))


def _push(row: aiosqlite.Row) -> Push:
    return Push(row[0], date.fromisoformat(row[1]), from_ms(row[2]), *row[3:7])


class DailyRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, chat_id: int) -> Schedule | None:
        row = await self.db.fetch_one(
            f"SELECT {_SCHEDULE_COLUMNS} FROM daily_schedules AS s WHERE s.chat_id = ?", (chat_id,)
        )
        return None if row is None else _schedule(row)

    async def set(
        self, chat_id: int, local_time: str, next_slot_at: datetime, next_day: date, now: datetime
    ) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO daily_schedules (chat_id, local_time, enabled, next_slot_at, "
                "next_day, updated_at) VALUES (?, ?, 1, ?, ?, ?) ON CONFLICT (chat_id) DO UPDATE "
                "SET local_time = excluded.local_time, enabled = 1, "
                "next_slot_at = excluded.next_slot_at, next_day = excluded.next_day, "
                "updated_at = excluded.updated_at",
                (chat_id, local_time, to_ms(next_slot_at), next_day.isoformat(), to_ms(now)),
            )

    async def disable(self, chat_id: int, now: datetime) -> bool:
        async with self.db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE daily_schedules SET enabled = 0, updated_at = ? "
                "WHERE chat_id = ? AND enabled = 1",
                (to_ms(now), chat_id),
            )
            return cursor.rowcount == 1

    async def due(self, now: datetime, limit: int = 5000) -> list[tuple[Schedule, str | None]]:
        """Enabled schedules whose next slot has come, with their chat's time zone."""
        rows = await self.db.fetch_all(
            f"SELECT {_SCHEDULE_COLUMNS}, c.timezone "
            "FROM daily_schedules AS s JOIN chats AS c ON c.id = s.chat_id "
            "WHERE s.enabled = 1 AND s.next_slot_at <= ? ORDER BY s.next_slot_at LIMIT ?",
            (to_ms(now), limit),
        )
        return [(_schedule(row), row[5]) for row in rows]

    async def record_slots(self, decisions: list[SlotDecision], now: datetime) -> None:
        """Write the ledger rows and advance the schedules, all in one transaction.

        A ledger row that exists already (the slot was handled before a crash) is kept as it is.
        """
        if not decisions:
            return
        at = to_ms(now)
        async with self.db.transaction() as conn:
            await conn.executemany(
                "INSERT INTO daily_pushes (chat_id, local_day, slot_at, status, created_at, "
                "done_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (chat_id, local_day) DO NOTHING",
                [
                    (
                        d.chat_id,
                        d.local_day.isoformat(),
                        to_ms(d.slot_at),
                        d.status,
                        at,
                        None if d.status == "pending" else at,
                    )
                    for d in decisions
                ],
            )
            await conn.executemany(
                "UPDATE daily_schedules SET next_slot_at = ?, next_day = ? WHERE chat_id = ?",
                [(to_ms(d.next_slot_at), d.next_day.isoformat(), d.chat_id) for d in decisions],
            )

    async def pending(self, limit: int = 1000) -> list[Push]:
        rows = await self.db.fetch_all(
            f"SELECT {_PUSH_COLUMNS} FROM daily_pushes WHERE status = 'pending' "
            "ORDER BY slot_at, chat_id LIMIT ?",
            (limit,),
        )
        return [_push(row) for row in rows]

    async def attach_ask(self, push: Push, ask_id: int) -> None:
        async with self.db.autocommit() as conn:
            await conn.execute(
                "UPDATE daily_pushes SET ask_id = ? WHERE chat_id = ? AND local_day = ?",
                (ask_id, push.chat_id, push.local_day.isoformat()),
            )

    async def mark_sent(self, push: Push, ask_id: int, message_id: int, now: datetime) -> None:
        """The question is out: the ask gets its message id and the ledger row is closed."""
        async with self.db.transaction() as conn:
            await conn.execute("UPDATE asks SET message_id = ? WHERE id = ?", (message_id, ask_id))
            await conn.execute(
                "UPDATE daily_pushes SET status = 'sent', message_id = ?, done_at = ?, "
                "attempts = attempts + 1 WHERE chat_id = ? AND local_day = ?",
                (message_id, to_ms(now), push.chat_id, push.local_day.isoformat()),
            )

    async def mark_attempt(self, push: Push, error: str, *, final: bool, now: datetime) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE daily_pushes SET attempts = attempts + 1, last_error = ?, "
                "status = CASE WHEN ? THEN 'failed' ELSE status END, "
                "done_at = CASE WHEN ? THEN ? ELSE done_at END "
                "WHERE chat_id = ? AND local_day = ?",
                (error, final, final, to_ms(now), push.chat_id, push.local_day.isoformat()),
            )

    async def push_for(self, chat_id: int, local_day: date) -> Push | None:
        row = await self.db.fetch_one(
            f"SELECT {_PUSH_COLUMNS} FROM daily_pushes WHERE chat_id = ? AND local_day = ?",
            (chat_id, local_day.isoformat()),
        )
        return None if row is None else _push(row)
