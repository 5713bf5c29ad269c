"""Daily schedules and the delivery ledger (`daily_pushes`, one row per chat and local day)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from datetime import date, datetime
from typing import Generic, TypeVar

from bot.core.model import Ask, AskDraft, Push, PushStatus, Schedule, SlotDecision
from storage.sql import rows
from storage.sql.base import StoreBase
from storage.sql.conn import Conn, Database
from storage.sql.rows import to_ms
from storage.sql.writes import SqlWrites

_PUSH_KEY = "WHERE chat_id = ? AND local_day = ?"
# The most calls one group commit takes (a fan-out has at most its sender's in-flight count).
_GROUP_COMMIT_MAX = 256

Item = TypeVar("Item")
Result = TypeVar("Result")
_Marked = tuple[Push, int, int, int]  # (push, ask id, message id, when in ms)


def _key(push: Push) -> tuple[int, str]:
    return push.chat_id, push.local_day.isoformat()


class _GroupCommit(Generic[Item, Result]):
    """Calls that arrive while a transaction is being written wait for the next one and commit
    together: a daily fan-out marks hundreds of pushes a second, and each transaction holds the
    connection's write lock for several thread hops. Every call still returns only once its
    own writes are committed; when a shared transaction fails, each of its calls is written
    again in a transaction of its own, so one bad call fails alone, as it would without this.
    A caller that is cancelled while it waits may still find its writes committed. The
    transactions run in a task of their own: a task that holds the write lock (inside
    `transaction()`) must not await these calls.
    """

    def __init__(
        self,
        db: Database,
        write: Callable[[Conn, list[Item]], Awaitable[list[Result]]],
    ) -> None:
        self._db = db
        self._write = write
        self._waiting: list[tuple[Item, asyncio.Future[Result]]] = []
        self._task: asyncio.Task[None] | None = None

    async def submit(self, item: Item) -> Result:
        future: asyncio.Future[Result] = asyncio.get_running_loop().create_future()
        self._waiting.append((item, future))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._flush(), name="daily-group-commit")
        return await future

    async def _flush(self) -> None:
        while self._waiting:
            batch = self._waiting[:_GROUP_COMMIT_MAX]
            del self._waiting[:_GROUP_COMMIT_MAX]
            try:
                await self._write_batch(batch)
            except BaseException:  # cancelled: nobody may wait for ever
                for _, future in [*batch, *self._waiting]:
                    future.cancel()
                self._waiting.clear()
                raise

    async def _write_batch(self, batch: list[tuple[Item, asyncio.Future[Result]]]) -> None:
        try:
            results = await self._commit([item for item, _ in batch])
        except Exception as error:
            if len(batch) == 1:
                if not batch[0][1].done():
                    batch[0][1].set_exception(error)
                return
            for one in batch:
                await self._write_batch([one])
            return
        for (_, future), result in zip(batch, results, strict=True):
            if not future.done():
                future.set_result(result)

    async def _commit(self, items: list[Item]) -> list[Result]:
        async with self._db.transaction() as conn:
            return await self._write(conn, items)


async def _attach_asks(conn: Conn, items: list[tuple[Push, AskDraft]]) -> list[Ask]:
    writes = SqlWrites(conn)
    asks = [await writes.create_ask(draft) for _, draft in items]
    await conn.executemany(
        f"UPDATE daily_pushes SET ask_id = ? {_PUSH_KEY}",
        [(ask.id, *_key(push)) for ask, (push, _) in zip(asks, items, strict=True)],
    )
    return asks


async def _mark_sent(conn: Conn, items: list[_Marked]) -> list[None]:
    await conn.executemany(
        "UPDATE asks SET message_id = ? WHERE id = ?",
        [(message_id, ask_id) for _, ask_id, message_id, _ in items],
    )
    await conn.executemany(
        "UPDATE daily_pushes SET status = 'sent', message_id = ?, done_at = ?, "
        f"attempts = attempts + 1 {_PUSH_KEY}",
        [(message_id, at, *_key(push)) for push, _, message_id, at in items],
    )
    return [None] * len(items)


class DailyQueries(StoreBase):
    def __init__(self, db: Database) -> None:
        super().__init__(db)
        self._attaching: _GroupCommit[tuple[Push, AskDraft], Ask] = _GroupCommit(db, _attach_asks)
        self._marking: _GroupCommit[_Marked, None] = _GroupCommit(db, _mark_sent)

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
        """Create the push's ask and note it on the ledger row, together (committed, with
        those of other pushes attached at the same moment, before this returns)."""
        return await self._attaching.submit((push, draft))

    async def mark_push_sent(self, push: Push, ask_id: int, message_id: int, now: datetime) -> None:
        """The question is out: the ask gets its message id and the ledger row is closed
        (committed, with other pushes marked at the same moment, before this returns)."""
        await self._marking.submit((push, ask_id, message_id, to_ms(now)))

    async def mark_push_attempt(
        self, push: Push, error: str, *, final: bool, now: datetime
    ) -> None:
        await self._db.execute(
            "UPDATE daily_pushes SET attempts = attempts + 1, last_error = ?, "
            "status = CASE WHEN ? = 1 THEN 'failed' ELSE status END, "
            f"done_at = CASE WHEN ? = 1 THEN ? ELSE done_at END {_PUSH_KEY}",
            (error, int(final), int(final), to_ms(now), *_key(push)),
        )
