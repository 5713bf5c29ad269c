"""The options a member has picked on a "choose N" question and not yet submitted."""

from __future__ import annotations

from datetime import datetime

from bot.core.model import as_mask, from_mask
from storage.sql.base import StoreBase
from storage.sql.rows import to_ms

# One statement a press: a pick turns on, or off when it was on (XOR, written so that both
# engines read it: SQLite has no XOR operator).
_TOGGLE = (
    "INSERT INTO selections (ask_id, user_id, picked, updated_at) VALUES (?1, ?2, ?3, ?4) "
    "ON CONFLICT (ask_id, user_id) DO UPDATE SET "
    "picked = (selections.picked | ?3) - (selections.picked & ?3), updated_at = ?4 "
    "RETURNING picked"
)


class SelectionQueries(StoreBase):
    async def toggle_pick(
        self, ask_id: int, user_id: int, position: int, now: datetime
    ) -> frozenset[int]:
        async with self._db.autocommit() as conn:
            row = await conn.fetch_one(
                _TOGGLE, (ask_id, user_id, as_mask(frozenset({position})), to_ms(now))
            )
        return frozenset() if row is None else from_mask(int(row["picked"]))

    async def picks_of(self, ask_id: int, user_id: int) -> frozenset[int]:
        row = await self._db.fetch_one(
            "SELECT picked FROM selections WHERE ask_id = ? AND user_id = ?", (ask_id, user_id)
        )
        return frozenset() if row is None else from_mask(int(row["picked"]))
