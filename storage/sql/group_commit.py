"""Group commit: writes that arrive while a transaction is being written wait for the next one
and commit together.

A fan-out settles hundreds of owed messages a second, and each transaction holds the
connection's write lock for several thread hops. Every call still returns only once its own
writes are committed; when a shared transaction fails, each of its calls is written again in a
transaction of its own, so one bad call fails alone, as it would without this. A caller that is
cancelled while it waits may still find its writes committed. The transactions run in a task
of their own (with a context of its own: they belong to no update's handling): a task that holds
the write lock (inside `transaction()`) must not await these calls.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

from storage.sql.conn import Conn, Database

Item = TypeVar("Item")
Result = TypeVar("Result")
# The most calls one group commit takes.
GROUP_COMMIT_MAX = 256


class GroupCommit(Generic[Item, Result]):
    def __init__(
        self,
        db: Database,
        write: Callable[[Conn, list[Item]], Awaitable[list[Result]]],
        after: Callable[[list[Item]], None] | None = None,
    ) -> None:
        """`write` writes a batch on the transaction's connection; `after` runs once the
        batch has committed."""
        self._db = db
        self._write = write
        self._after = after
        self._waiting: list[tuple[Item, asyncio.Future[Result]]] = []
        self._task: asyncio.Task[None] | None = None

    async def submit(self, item: Item) -> Result:
        future: asyncio.Future[Result] = asyncio.get_running_loop().create_future()
        self._waiting.append((item, future))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(
                self._flush(), name="group-commit", context=contextvars.Context()
            )
        return await future

    async def _flush(self) -> None:
        while self._waiting:
            batch = self._waiting[:GROUP_COMMIT_MAX]
            del self._waiting[:GROUP_COMMIT_MAX]
            try:
                await self._write_batch(batch)
            except BaseException:  # cancelled: nobody may wait for ever
                for _, future in [*batch, *self._waiting]:
                    future.cancel()
                self._waiting.clear()
                raise

    async def _write_batch(self, batch: list[tuple[Item, asyncio.Future[Result]]]) -> None:
        items = [item for item, _ in batch]
        try:
            async with self._db.transaction() as conn:
                results = await self._write(conn, items)
        except Exception as error:
            if len(batch) == 1:
                if not batch[0][1].done():
                    batch[0][1].set_exception(error)
                return
            for one in batch:
                await self._write_batch([one])
            return
        if self._after is not None:
            self._after(items)
        for (_, future), result in zip(batch, results, strict=True):
            if not future.done():
                future.set_result(result)
