"""Leadership on PostgreSQL: a session advisory lock held on a connection of its own.

The lock lives as long as that connection: when the leader's process dies, the server drops
the session and the lock with it, and the next replica to try takes it. A leader that cannot
reach the server any more steps down at its next check.
"""

from __future__ import annotations

import asyncio
import logging

import asyncpg

log = logging.getLogger(__name__)

# "quizlead" in ASCII, as a bigint: the key every replica of one database competes for.
LEADER_LOCK = 0x71_75_69_7A_6C_65_61_64
CHECK_TIMEOUT_SECONDS = 2.0
_LOST = (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError)


class PostgresLeadership:
    def __init__(self, url: str) -> None:
        self._url = url
        self._conn: asyncpg.Connection | None = None
        self._held = False

    async def hold(self) -> bool:
        try:
            return await asyncio.wait_for(self._hold(), CHECK_TIMEOUT_SECONDS)
        except _LOST as error:
            if self._held:
                log.warning("leadership lost: %s", error)
            await self._drop()
            return False

    async def _hold(self) -> bool:
        if self._conn is None or self._conn.is_closed():
            self._held = False
            self._conn = await asyncpg.connect(self._url)
        if self._held:
            await self._conn.fetchval("SELECT 1")  # the session, and so the lock, is alive
        else:
            self._held = bool(
                await self._conn.fetchval("SELECT pg_try_advisory_lock($1)", LEADER_LOCK)
            )
        return self._held

    async def resign(self) -> None:
        await self._drop()

    async def _drop(self) -> None:
        conn, self._conn, self._held = self._conn, None, False
        if conn is not None and not conn.is_closed():
            try:
                await asyncio.wait_for(conn.close(), CHECK_TIMEOUT_SECONDS)
            except _LOST:
                conn.terminate()
