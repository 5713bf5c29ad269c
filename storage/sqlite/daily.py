"""Daily schedules and the delivery ledger (`daily_pushes`, one row per chat and local day)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

from bot.core.model import Ask, AskDraft, Push, PushStatus, Schedule, SlotDecision
from storage.sqlite import rows
from storage.sqlite.base import StoreBase
from storage.sqlite.rows import to_ms
from storage.sqlite.writes import SqliteWrites

_PUSH_KEY = "WHERE chat_id = ? AND local_day = ?"


def _key(push: Push) -> tuple[int, str]:
    return push.chat_id, push.local_day.isoformat()


class DailyQueries(StoreBase):
    async def schedule(self, chat_id: int) -> Schedule | None:
        row = await self._db.fetch_one(
            f"SELECT {rows.SCHEDULE_COLUMNS} FROM daily_schedules AS s WHERE s.chat_id = ?",
            (chat_id,),
        )
        return None if row is None else rows.schedule(row)

    async def set_schedule(
        self, chat_id: int, local_time: str, next_slot_at: datetime, next_day: date, now: datetime
    ) -> None:
        await self._db.execute(
            "INSERT INTO daily_schedules (chat_id, local_time, enabled, next_slot_at, "
            "next_day, updated_at) VALUES (?, ?, 1, ?, ?, ?) ON CONFLICT (chat_id) DO UPDATE "
            "SET local_time = excluded.local_time, enabled = 1, "
            "next_slot_at = excluded.next_slot_at, next_day = excluded.next_day, "
            "updated_at = excluded.updated_at",
            (chat_id, local_time, to_ms(next_slot_at), next_day.isoformat(), to_ms(now)),
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

    async def record_slots(self, decisions: Sequence[SlotDecision], now: datetime) -> None:
        """Write the ledger rows and advance the schedules, all in one transaction.

        A ledger row that exists already (the slot was handled before a crash) is kept as it is.
        """
        if not decisions:
            return
        at = to_ms(now)
        async with self._db.transaction() as conn:
            await conn.executemany(
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
            await conn.executemany(
                "UPDATE daily_schedules SET next_slot_at = ?, next_day = ? WHERE chat_id = ?",
                [(to_ms(d.next_slot_at), d.next_day.isoformat(), d.chat_id) for d in decisions],
            )

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
        """Create the push's ask and note it on the ledger row, together."""
        async with self._db.transaction() as conn:
            ask = await SqliteWrites(conn).create_ask(draft)
            await conn.execute(
                f"UPDATE daily_pushes SET ask_id = ? {_PUSH_KEY}", (ask.id, *_key(push))
            )
        return ask

    async def mark_push_sent(self, push: Push, ask_id: int, message_id: int, now: datetime) -> None:
        """The question is out: the ask gets its message id and the ledger row is closed."""
        async with self._db.transaction() as conn:
            await SqliteWrites(conn).set_ask_message(ask_id, message_id)
            await conn.execute(
                "UPDATE daily_pushes SET status = 'sent', message_id = ?, done_at = ?, "
                f"attempts = attempts + 1 {_PUSH_KEY}",
                (message_id, to_ms(now), *_key(push)),
            )

    async def mark_push_attempt(
        self, push: Push, error: str, *, final: bool, now: datetime
    ) -> None:
        await self._db.execute(
            "UPDATE daily_pushes SET attempts = attempts + 1, last_error = ?, "
            "status = CASE WHEN ? THEN 'failed' ELSE status END, "
            f"done_at = CASE WHEN ? THEN ? ELSE done_at END {_PUSH_KEY}",
            (error, int(final), int(final), to_ms(now), *_key(push)),
        )
