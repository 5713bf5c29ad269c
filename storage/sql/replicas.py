"""Replicas on one database: heartbeats, a chat's send claim, and daily pushes claimed with
a lease (`bot.core.ports.replicas`)."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.core.model import Push
from storage.sql import rows
from storage.sql.base import StoreBase
from storage.sql.conn import Variants
from storage.sql.rows import to_ms

# A replica not seen for this long is forgotten (its share goes to the others long before).
FORGET_AFTER = timedelta(minutes=1)

_BEAT = (
    "INSERT INTO replicas (id, started_at, seen_at) VALUES (?1, ?2, ?2) "
    "ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at"
)
_FORGET = "DELETE FROM replicas WHERE seen_at < ?"
_ALIVE = "SELECT count(*) AS n FROM replicas WHERE seen_at > ?"
_CLAIM_CHAT = (
    "INSERT INTO chat_claims (chat_id, owner, until) VALUES (?1, ?2, ?3) "
    "ON CONFLICT (chat_id) DO UPDATE SET owner = excluded.owner, until = excluded.until "
    "WHERE chat_claims.owner = excluded.owner OR chat_claims.until <= ?4 RETURNING owner"
)
# The oldest unclaimed pending rows (from the partial index daily_pushes_pending). PostgreSQL
# skips rows another replica's claim is locking right now; SQLite has one writer at a time.
_CLAIM_PUSHES = (
    "UPDATE daily_pushes SET claimed_by = ?1, claim_until = ?2 "
    "WHERE (chat_id, local_day) IN (SELECT chat_id, local_day FROM daily_pushes "
    "WHERE status = 'pending' AND (claim_until IS NULL OR claim_until <= ?3) "
    "ORDER BY slot_at, chat_id LIMIT ?4{lock}) "
    f"RETURNING {rows.PUSH_COLUMNS}"
)
CLAIM_PUSHES = Variants(
    _CLAIM_PUSHES.format(lock=""), _CLAIM_PUSHES.format(lock=" FOR UPDATE SKIP LOCKED")
)
_RELEASE_DEAD_CHATS = (
    "DELETE FROM chat_claims WHERE owner NOT IN (SELECT id FROM replicas WHERE seen_at > ?)"
)
_RELEASE_PUSHES = (
    "UPDATE daily_pushes SET claimed_by = NULL, claim_until = NULL "
    "WHERE status = 'pending' AND claimed_by IS NOT NULL AND claimed_by <> ?"
)


class ReplicaQueries(StoreBase):
    async def heartbeat(self, replica: str, now: datetime, alive_after: datetime) -> int:
        async with self._db.transaction() as conn:
            await conn.execute(_BEAT, (replica, to_ms(now)))
            await conn.execute(_FORGET, (to_ms(now - FORGET_AFTER),))
            row = await conn.fetch_one(_ALIVE, (to_ms(alive_after),))
        return max(1, 0 if row is None else int(row["n"]))

    async def retire(self, replica: str) -> None:
        await self._db.execute("DELETE FROM replicas WHERE id = ?", (replica,))

    async def claim_chat(self, chat_id: int, replica: str, now: datetime, until: datetime) -> bool:
        async with self._db.autocommit() as conn:
            row = await conn.fetch_one(_CLAIM_CHAT, (chat_id, replica, to_ms(until), to_ms(now)))
        return row is not None

    async def release_chat(self, chat_id: int, replica: str) -> None:
        await self._db.execute(
            "DELETE FROM chat_claims WHERE chat_id = ? AND owner = ?", (chat_id, replica)
        )

    async def claim_pushes(
        self, replica: str, now: datetime, until: datetime, limit: int
    ) -> list[Push]:
        async with self._db.autocommit() as conn:
            found = await conn.fetch_all(CLAIM_PUSHES, (replica, to_ms(until), to_ms(now), limit))
        pushes = [rows.push(row) for row in found]
        pushes.sort(key=lambda push: (push.slot_at, push.chat_id))  # RETURNING keeps no order
        return pushes

    async def release_dead_claims(self, alive_after: datetime) -> int:
        """Drop the chat claims of replicas not seen after `alive_after` (they died holding
        them); how many."""
        return await self._db.execute(_RELEASE_DEAD_CHATS, (to_ms(alive_after),))

    async def release_push_claims(self, keep: str) -> int:
        return await self._db.execute(_RELEASE_PUSHES, (keep,))
