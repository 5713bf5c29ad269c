"""What every per-concern part of `SqliteStore` shares: the database, `Store.transaction()` and
the group answers' card updates waiting to be written."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.core.model import Card
from storage.sql.conn import Database
from storage.sql.writes import SqlWrites
from storage.sql.writes.memory import SAVE_CARD, card_params

log = logging.getLogger(__name__)

# A group answer's card update is written with the others of the next 50 ms in one commit: a
# commit of its own per answer cost the answer path a quarter of its rate. Until then this
# store reads the card from here; a crash loses at most these updates (the answers and the
# learning log, written by the answer's own statement, are complete).
CARD_FLUSH_SECONDS = 0.05
CardKey = tuple[int, str, str]


class StoreBase:
    def __init__(self, db: Database) -> None:
        self._db = db
        self._cards_pending: dict[CardKey, Card] = {}
        self._cards_flush: asyncio.Task[None] | None = None

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqlWrites]:
        """Writes that commit together at the end of the block (BEGIN IMMEDIATE … COMMIT),
        or not at all when it raises. The block holds the connection's write lock: a store
        method that writes must not be awaited inside it (that raises RuntimeError)."""
        await self.flush_cards()  # the block may read cards
        async with self._db.transaction() as conn:
            yield SqlWrites(conn)

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
            self._cards_flush = asyncio.get_running_loop().create_task(self._flush_soon())

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
