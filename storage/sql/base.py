"""What every per-concern part of `SqlStore` shares: the database, `Store.transaction()` (with
what runs after its commit and the update it records), `Store.grouped()`, and the group
answers' card updates waiting to be written."""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from bot.core.model import Card, UpdateAlreadyHandledError, UpdateMark
from storage.sql.conn import Conn, Database
from storage.sql.group_commit import GroupCommit
from storage.sql.rows import to_ms
from storage.sql.writes import SqlWrites
from storage.sql.writes.memory import SAVE_CARD, card_params

log = logging.getLogger(__name__)

# A group answer's card update is written with the others of the next 50 ms in one commit: a
# commit of its own per answer cost the answer path a quarter of its rate. Until then this
# store reads the card from here; a crash loses at most these updates (the answers and the
# learning log, written by the answer's own statement, are complete).
CARD_FLUSH_SECONDS = 0.05
CardKey = tuple[int, str, str]
Write = Callable[[SqlWrites], Awaitable[None]]

# The update whose handling this task is in (set by `HandledUpdates.acting_on`).
ACTING_ON: contextvars.ContextVar[UpdateMark | None] = contextvars.ContextVar(
    "acting_on", default=None
)
RECORD_UPDATE = (
    "INSERT INTO handled_updates (update_id, handled_at) VALUES (?, ?) "
    "ON CONFLICT (update_id) DO NOTHING"
)


def _run_callbacks(writes: SqlWrites) -> None:
    for callback in writes.committed():
        try:
            callback()
        except Exception:  # a listener's bug must not undo what was committed
            log.exception("an after-commit callback failed")


async def _record(conn: Conn, mark: UpdateMark) -> None:
    if await conn.execute(RECORD_UPDATE, (mark.update_id, to_ms(mark.at))) != 1:
        raise UpdateAlreadyHandledError(mark.update_id)


class StoreBase:
    def __init__(self, db: Database) -> None:
        self._db = db
        self._cards_pending: dict[CardKey, Card] = {}
        self._cards_flush: asyncio.Task[None] | None = None
        self._grouped: GroupCommit[_Grouped, None] = GroupCommit(db, _apply_writes, _after_group)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqlWrites]:
        """Writes that commit together at the end of the block (BEGIN IMMEDIATE … COMMIT),
        or not at all when it raises; their after-commit callbacks run after the commit. The
        first transaction of an update's handling records the update in the same commit
        (`UpdateAlreadyHandledError` when another handling did). The block holds the
        connection's write lock: a store method that writes must not be awaited inside it
        (that raises RuntimeError)."""
        await self.flush_cards()  # the block may read cards
        mark = ACTING_ON.get()
        async with self._db.transaction() as conn:
            if mark is not None and not mark.recorded:
                await _record(conn, mark)
            writes = SqlWrites(conn)
            yield writes
        if mark is not None:
            mark.recorded = True
        _run_callbacks(writes)

    async def grouped(self, write: Write) -> None:
        """`write` in a transaction that writes arriving at the same moment share."""
        await self._grouped.submit(_Grouped(write))

    @asynccontextmanager
    async def _autocommit(self) -> AsyncIterator[SqlWrites]:
        """Writes that each commit on their own (for single statements and the answer path)."""
        async with self._db.autocommit() as conn:
            yield SqlWrites(conn)

    def _pending_card(self, key: CardKey) -> Card | None:
        return self._cards_pending.get(key)

    def _defer_card(self, card: Card) -> None:
        self._cards_pending[(card.user_id, card.deck_id, card.question_id)] = card
        if self._cards_flush is None:
            # A context of its own: the flush belongs to no update's handling.
            self._cards_flush = asyncio.get_running_loop().create_task(
                self._flush_soon(), context=contextvars.Context()
            )

    async def _flush_soon(self) -> None:
        await asyncio.sleep(CARD_FLUSH_SECONDS)
        try:
            await self.flush_cards()
        except Exception:
            log.exception("writing %d card updates failed", len(self._cards_pending))

    async def flush_cards(self) -> None:
        """Write the card updates waiting, in one commit."""
        task, self._cards_flush = self._cards_flush, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        if not self._cards_pending:
            return
        cards = list(self._cards_pending.values())
        self._cards_pending.clear()
        async with self._db.transaction() as conn:
            await conn.executemany(SAVE_CARD, [card_params(card) for card in cards])


class _Grouped:
    """One grouped write, and the writes object it ran on (for its after-commit callbacks)."""

    def __init__(self, write: Write) -> None:
        self.write = write
        self.writes: SqlWrites | None = None


async def _apply_writes(conn: Conn, batch: list[_Grouped]) -> list[None]:
    for item in batch:
        item.writes = SqlWrites(conn)
        await item.write(item.writes)
    return [None] * len(batch)


def _after_group(batch: list[_Grouped]) -> None:
    for item in batch:
        if item.writes is not None:
            _run_callbacks(item.writes)
