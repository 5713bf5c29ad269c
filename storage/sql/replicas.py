"""Replicas on one database: heartbeats and a chat's send claim (`bot.core.ports.replicas`)."""

from __future__ import annotations

from datetime import datetime, timedelta

from storage.sql.base import StoreBase
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
_RELEASE_DEAD_CHATS = (
    "DELETE FROM chat_claims WHERE owner NOT IN (SELECT id FROM replicas WHERE seen_at > ?)"
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

    async def release_dead_claims(self, alive_after: datetime) -> int:
        """Drop the chat claims of replicas not seen after `alive_after` (they died holding
        them); how many."""
        return await self._db.execute(_RELEASE_DEAD_CHATS, (to_ms(alive_after),))
