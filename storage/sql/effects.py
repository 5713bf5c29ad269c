"""The outbox: messages the bot owes chats, written with the state change that owes them."""

from __future__ import annotations

from datetime import datetime

from bot.core.model import Effect, EffectKind
from storage.sql import rows
from storage.sql.base import StoreBase
from storage.sql.conn import Variants
from storage.sql.rows import to_ms
from storage.sql.writes import EFFECT_FAILED, SqlWrites

# The most overdue chat first. Only the due rows are read, from the partial index (left to
# itself the planner may prefer to walk every pending row in chat order for the GROUP BY).
_DUE_EFFECT_CHATS = (
    "SELECT chat_id FROM effects {hint}"
    "WHERE status = 'pending' AND not_before <= ? "
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
    async def due_effect_chats(self, now: datetime, limit: int) -> list[int]:
        """Chats with pending effects that may be tried now."""
        found = await self._db.fetch_all(DUE_EFFECT_CHATS, (to_ms(now), limit))
        return [row["chat_id"] for row in found]

    async def pending_effects(self, chat_id: int, limit: int) -> list[Effect]:
        """The chat's pending effects, oldest first, each with when it may be tried next."""
        found = await self._db.fetch_all(PENDING_EFFECTS, (chat_id, limit))
        return [rows.effect(row) for row in found]

    async def effect_done(
        self,
        effect: Effect,
        now: datetime,
        message_id: int | None,
        closes_at: datetime | None = None,
    ) -> None:
        """Mark the effect done; for a QUESTION, the ask gets `message_id` (and, when given,
        its deadline `closes_at`) in the same commit."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE effects SET status = 'done', attempts = attempts + 1, done_at = ? "
                "WHERE id = ?",
                (to_ms(now), effect.id),
            )
            ask_id = effect.ask_id if effect.kind is EffectKind.QUESTION else None
            if ask_id is not None and message_id is not None:
                await SqlWrites(conn).set_ask_message(ask_id, message_id)
            if ask_id is not None and closes_at is not None:
                await conn.execute(
                    "UPDATE asks SET closes_at = ? WHERE id = ? AND closed_at IS NULL",
                    (to_ms(closes_at), ask_id),
                )

    async def effect_retry(self, effect: Effect, error: str, not_before: datetime) -> None:
        """Count a failed attempt; the effect stays pending, not tried before `not_before`."""
        await self._db.execute(
            "UPDATE effects SET attempts = attempts + 1, last_error = ?, not_before = ? "
            "WHERE id = ?",
            (error, to_ms(not_before), effect.id),
        )

    async def effect_failed(self, effect: Effect, error: str, now: datetime) -> None:
        """Give up on the effect for good (counted as an attempt)."""
        await self._db.execute(EFFECT_FAILED, (error, to_ms(now), effect.id))

    async def drop_chat_effects(self, chat_id: int, error: str, now: datetime) -> int:
        """Fail every pending effect of a chat the bot can no longer write to; how many."""
        return await self._db.execute(
            "UPDATE effects SET status = 'failed', last_error = ?, done_at = ? "
            "WHERE chat_id = ? AND status = 'pending'",
            (error, to_ms(now), chat_id),
        )
