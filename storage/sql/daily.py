"""Daily schedules and the delivery ledger (`daily_pushes`, one row per chat and local day)."""

from __future__ import annotations

from datetime import date, datetime

from bot.core.model import Ask, AskDraft, Push, Schedule
from storage.sql import rows
from storage.sql.base import StoreBase
from storage.sql.conn import Conn, Database
from storage.sql.group_commit import GroupCommit
from storage.sql.rows import to_ms
from storage.sql.writes import SqlWrites

_PUSH_KEY = "WHERE chat_id = ? AND local_day = ?"


def _key(push: Push) -> tuple[int, str]:
    return push.chat_id, push.local_day.isoformat()


async def _attach_asks(conn: Conn, items: list[tuple[Push, AskDraft]]) -> list[Ask]:
    writes = SqlWrites(conn)
    asks = [await writes.create_ask(draft) for _, draft in items]
    await conn.executemany(
        f"UPDATE daily_pushes SET ask_id = ? {_PUSH_KEY}",
        [(ask.id, *_key(push)) for ask, (push, _) in zip(asks, items, strict=True)],
    )
    return asks


class DailyQueries(StoreBase):
    def __init__(self, db: Database) -> None:
        super().__init__(db)
        self._attaching: GroupCommit[tuple[Push, AskDraft], Ask] = GroupCommit(db, _attach_asks)

    async def schedule(self, chat_id: int) -> Schedule | None:
        row = await self._db.fetch_one(
            f"SELECT {rows.SCHEDULE_COLUMNS} FROM daily_schedules AS s WHERE s.chat_id = ?",
            (chat_id,),
        )
        return None if row is None else rows.schedule(row)

    async def set_schedule(
        self,
        chat_id: int,
        local_time: str,
        next_slot_at: datetime,
        next_day: date,
        now: datetime,
        thread_id: int | None = None,
    ) -> None:
        await self._db.execute(
            "INSERT INTO daily_schedules (chat_id, local_time, enabled, next_slot_at, "
            "next_day, updated_at, thread_id) VALUES (?, ?, 1, ?, ?, ?, ?) "
            "ON CONFLICT (chat_id) DO UPDATE "
            "SET local_time = excluded.local_time, enabled = 1, "
            "next_slot_at = excluded.next_slot_at, next_day = excluded.next_day, "
            "updated_at = excluded.updated_at, thread_id = excluded.thread_id",
            (
                chat_id,
                local_time,
                to_ms(next_slot_at),
                next_day.isoformat(),
                to_ms(now),
                thread_id,
            ),
        )

    async def disable_schedule(self, chat_id: int, now: datetime) -> bool:
        changed = await self._db.execute(
            "UPDATE daily_schedules SET enabled = 0, updated_at = ? "
            "WHERE chat_id = ? AND enabled = 1",
            (to_ms(now), chat_id),
        )
        return changed == 1

    async def due_schedules(self, now: datetime, limit: int) -> list[tuple[Schedule, str | None]]:
        """Enabled schedules whose next slot has come, with their chat's time zone key."""
        found = await self._db.fetch_all(
            f"SELECT {rows.SCHEDULE_COLUMNS}, c.timezone "
            "FROM daily_schedules AS s JOIN chats AS c ON c.id = s.chat_id "
            "WHERE s.enabled = 1 AND s.next_slot_at <= ? "
            "ORDER BY s.next_slot_at, s.chat_id LIMIT ?",
            (to_ms(now), limit),
        )
        return [(rows.schedule(row), row["timezone"]) for row in found]

    async def pending_pushes(self, limit: int) -> list[Push]:
        found = await self._db.fetch_all(
            f"SELECT {rows.PUSH_COLUMNS} FROM daily_pushes WHERE status = 'pending' "
            "ORDER BY slot_at, chat_id LIMIT ?",
            (limit,),
        )
        return [rows.push(row) for row in found]

    async def push_for(self, chat_id: int, local_day: date) -> Push | None:
        row = await self._db.fetch_one(
            f"SELECT {rows.PUSH_COLUMNS} FROM daily_pushes {_PUSH_KEY}",
            (chat_id, local_day.isoformat()),
        )
        return None if row is None else rows.push(row)

    async def attach_push_ask(self, push: Push, draft: AskDraft) -> Ask:
        """Create the push's ask and note it on the ledger row, together (committed, with
        those of other pushes attached at the same moment, before this returns)."""
        return await self._attaching.submit((push, draft))

    async def mark_push_attempt(
        self, push: Push, error: str, *, final: bool, now: datetime
    ) -> None:
        await self._db.execute(
            "UPDATE daily_pushes SET attempts = attempts + 1, last_error = ?, "
            "status = CASE WHEN ? = 1 THEN 'failed' ELSE status END, "
            f"done_at = CASE WHEN ? = 1 THEN ? ELSE done_at END {_PUSH_KEY}",
            (error, int(final), int(final), to_ms(now), *_key(push)),
        )
