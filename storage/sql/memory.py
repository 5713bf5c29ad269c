"""Learner memory: due cards, leeches and the log of first presses."""

from __future__ import annotations

from datetime import datetime

from bot.core.model import LEECH_LAPSES, Card, Learned
from storage.sql.base import StoreBase
from storage.sql.rows import from_ms, to_ms
from storage.sql.writes.memory import CARD_COLUMNS, card_of

# All served by the cards_due index (user_id, deck_id, due).
_DUE = (
    f"SELECT {CARD_COLUMNS} FROM cards WHERE user_id = ? AND deck_id = ? AND due <= ? "
    "ORDER BY due LIMIT ?"
)
_DUE_COUNT = "SELECT count(*) AS n FROM cards WHERE user_id = ? AND deck_id = ? AND due <= ?"
_NEXT_DUE = "SELECT min(due) AS due FROM cards WHERE user_id = ? AND deck_id = ?"
_LEECHES = (
    f"SELECT {CARD_COLUMNS} FROM cards WHERE user_id = ? AND deck_id = ? AND lapses >= ? "
    "ORDER BY lapses DESC, question_id"
)
_HISTORY = (
    "SELECT question_id, correct, at FROM learning_log "
    "WHERE user_id = ? AND deck_id = ? AND at >= ? ORDER BY at"
)


class MemoryQueries(StoreBase):
    async def due_cards(self, user_id: int, deck_id: str, now: datetime, limit: int) -> list[Card]:
        await self.flush_cards()
        rows = await self._db.fetch_all(_DUE, (user_id, deck_id, to_ms(now), limit))
        return [card_of(row) for row in rows]

    async def due_count(self, user_id: int, deck_id: str, now: datetime) -> int:
        await self.flush_cards()
        row = await self._db.fetch_one(_DUE_COUNT, (user_id, deck_id, to_ms(now)))
        return 0 if row is None else int(row["n"])

    async def next_due(self, user_id: int, deck_id: str) -> datetime | None:
        await self.flush_cards()
        row = await self._db.fetch_one(_NEXT_DUE, (user_id, deck_id))
        return None if row is None or row["due"] is None else from_ms(int(row["due"]))

    async def leeches(self, user_id: int, deck_id: str) -> list[Card]:
        await self.flush_cards()
        rows = await self._db.fetch_all(_LEECHES, (user_id, deck_id, LEECH_LAPSES))
        return [card_of(row) for row in rows]

    async def history(self, user_id: int, deck_id: str, since: datetime) -> list[Learned]:
        rows = await self._db.fetch_all(_HISTORY, (user_id, deck_id, to_ms(since)))
        return [
            Learned(str(row["question_id"]), bool(row["correct"]), from_ms(int(row["at"])))
            for row in rows
        ]
