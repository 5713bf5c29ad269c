"""The PostgreSQL driver: an asyncpg pool, migrated on open; statements through `Conn`."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from contextvars import ContextVar

import asyncpg

from storage.postgres.migrate import migrate
from storage.sql.conn import Conn, Dialect, Params, Row, Sql, postgres_text

# Prepared statements are cached per connection; the stores have a few hundred texts.
STATEMENT_CACHE = 1024
PING_TIMEOUT_SECONDS = 2.0
# Prepared statements are planned for their values each time: a generic plan, costed for an
# average chat, reads a big group's whole board to rank it (ten times slower at 1M answers);
# planning one of these statements costs a fraction of a millisecond.
SESSION_SETTINGS = {"plan_cache_mode": "force_custom_plan"}

# Set while a task is inside `transaction()`: a write on another pooled connection from there
# could wait for the transaction's own row locks for ever, so it raises instead (as on SQLite).
_in_transaction: ContextVar[bool] = ContextVar("in_transaction", default=False)


def _not_in_transaction() -> None:
    if _in_transaction.get():
        raise RuntimeError("this task is inside a transaction: write through its Writes")


def _text(sql: Sql) -> str:
    return postgres_text(sql if isinstance(sql, str) else sql.postgres)


def rowcount(status: str) -> int:
    """Rows changed, from a command tag such as `UPDATE 3` or `INSERT 0 1`."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PostgresConn:
    """`Conn` on one asyncpg connection."""

    dialect = Dialect.POSTGRES

    def __init__(self, conn: asyncpg.Connection | asyncpg.pool.PoolConnectionProxy) -> None:
        self._conn = conn

    async def execute(self, sql: Sql, params: Params = ()) -> int:
        return rowcount(await self._conn.execute(_text(sql), *params))

    async def executemany(self, sql: Sql, params: Iterable[Params]) -> None:
        batch = [tuple(p) for p in params]
        if batch:
            await self._conn.executemany(_text(sql), batch)

    async def fetch_all(self, sql: Sql, params: Params = ()) -> list[Row]:
        return list(await self._conn.fetch(_text(sql), *params))

    async def fetch_one(self, sql: Sql, params: Params = ()) -> Row | None:
        row: Row | None = await self._conn.fetchrow(_text(sql), *params)
        return row


class PostgresDatabase:
    """A pool of connections; each transaction or autocommit block holds one of them."""

    dialect = Dialect.POSTGRES

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self.url = url

    @classmethod
    async def open(cls, url: str, *, pool_size: int = 10) -> PostgresDatabase:
        """Connect to `url`, bring its schema up to date (one replica at a time), and open
        the pool; `SchemaTooNewError` if a newer quizbot wrote it (left unchanged)."""
        conn = await asyncpg.connect(url)
        try:
            await migrate(conn)
        finally:
            await conn.close()
        pool = await asyncpg.create_pool(
            url,
            min_size=min(2, pool_size),
            max_size=pool_size,
            statement_cache_size=STATEMENT_CACHE,
            server_settings=SESSION_SETTINGS,
        )
        return cls(pool, url)

    async def close(self) -> None:
        await self._pool.close()

    async def ping(self) -> bool:
        try:
            await asyncio.wait_for(self._pool.fetchval("SELECT 1"), PING_TIMEOUT_SECONDS)
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError):
            return False
        return True

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Conn]:
        _not_in_transaction()
        async with self._pool.acquire() as conn, conn.transaction():
            token = _in_transaction.set(True)
            try:
                yield PostgresConn(conn)
            finally:
                _in_transaction.reset(token)

    @asynccontextmanager
    async def autocommit(self) -> AsyncIterator[Conn]:
        _not_in_transaction()
        async with self._pool.acquire() as conn:
            yield PostgresConn(conn)

    async def execute(self, sql: Sql, params: Params = ()) -> int:
        _not_in_transaction()
        return rowcount(await self._pool.execute(_text(sql), *params))

    async def executemany(self, sql: Sql, params: Iterable[Params]) -> None:
        async with self.autocommit() as conn:
            await conn.executemany(sql, params)

    async def fetch_all(self, sql: Sql, params: Params = ()) -> list[Row]:
        return list(await self._pool.fetch(_text(sql), *params))

    async def fetch_one(self, sql: Sql, params: Params = ()) -> Row | None:
        row: Row | None = await self._pool.fetchrow(_text(sql), *params)
        return row
