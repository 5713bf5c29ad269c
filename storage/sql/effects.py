"""The outbox: messages the bot owes chats, written with the state change that owes them (the
writes are in `storage.sql.writes.outbox`); here the sender's reads."""

from __future__ import annotations

from datetime import datetime

from bot.core.model import Effect
from storage.sql import rows
from storage.sql.base import StoreBase
from storage.sql.conn import Variants
from storage.sql.rows import to_ms

# The most overdue chat first. Only the due rows are read, from the partial index (left to
# itself the planner may prefer to walk every pending row in chat order for the GROUP BY).
_DUE_EFFECT_CHATS = (
    "SELECT chat_id FROM effects {hint}"
    "WHERE status = 'pending' AND bulk = ? AND not_before <= ? "
    "GROUP BY chat_id ORDER BY min(not_before), chat_id LIMIT ?"
)
DUE_EFFECT_CHATS = Variants(
    _DUE_EFFECT_CHATS.format(hint="INDEXED BY effects_pending_due "),
    _DUE_EFFECT_CHATS.format(hint=""),
)
# Served by the partial index effects_pending_by_chat.
PENDING_EFFECTS = (
    f"SELECT {rows.EFFECT_COLUMNS} FROM effects WHERE chat_id = ? AND status = 'pending' "
    "ORDER BY id LIMIT ?"
)


class EffectQueries(StoreBase):
    async def due_effect_chats(self, now: datetime, limit: int, *, bulk: bool = False) -> list[int]:
        """Chats with pending effects of the class `bulk` names that may be tried now."""
        found = await self._db.fetch_all(DUE_EFFECT_CHATS, (int(bulk), to_ms(now), limit))
        return [row["chat_id"] for row in found]

    async def pending_effects(self, chat_id: int, limit: int) -> list[Effect]:
        """The chat's pending effects, oldest first, each with when it may be tried next."""
        found = await self._db.fetch_all(PENDING_EFFECTS, (chat_id, limit))
        return [rows.effect(row) for row in found]

    async def forget_settled_effects_before(self, before: datetime) -> int:
        return await self._db.execute(
            "DELETE FROM effects WHERE status <> 'pending' AND done_at < ?", (to_ms(before),)
        )
