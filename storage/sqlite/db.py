"""The SQLite driver: one connection opened with the right PRAGMAs, numbered migrations,
transactions; statements through `storage.sql.conn.Conn`."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

from storage.migrations import Migration, SchemaTooNewError, load_migrations, too_new_message
from storage.sql.conn import Conn, Dialect, Params, Row, Sql

BUSY_TIMEOUT_MS = 5000


def bundled_migrations() -> list[Migration]:
    """The migrations shipped in `storage/sqlite/migrations`, in version order."""
    return load_migrations("storage.sqlite")


def _text(sql: Sql) -> str:
    return sql if isinstance(sql, str) else sql.sqlite


class SqliteConn:
    """`Conn` on the aiosqlite connection; the caller holds the write lock when it writes."""

    dialect = Dialect.SQLITE

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: Sql, params: Params = ()) -> int:
        cursor = await self._conn.execute(_text(sql), tuple(params))
        return cursor.rowcount

    async def executemany(self, sql: Sql, params: Iterable[Params]) -> None:
        await self._conn.executemany(_text(sql), (tuple(p) for p in params))

    async def fetch_all(self, sql: Sql, params: Params = ()) -> list[Row]:
        return list(await self._conn.execute_fetchall(_text(sql), tuple(params)))

    async def fetch_one(self, sql: Sql, params: Params = ()) -> Row | None:
        async with self._conn.execute(_text(sql), tuple(params)) as cursor:
            row: Row | None = await cursor.fetchone()
            return row


class SqliteDatabase(SqliteConn):
    """One aiosqlite connection. Writes go through `transaction()` or `autocommit()`; reads
    outside them run on the same connection (and see a transaction open at that moment)."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        super().__init__(conn)
        self.conn = conn
        # One connection is shared by every coroutine: statements of two transactions
        # must not interleave, so a writer holds this lock from BEGIN to COMMIT.
        self._write_lock = asyncio.Lock()
        self._holder: asyncio.Task[object] | None = None

    @classmethod
    async def open(
        cls, path: Path, migrations: Iterable[Migration] | None = None
    ) -> SqliteDatabase:
        """Open (creating if needed) the database at `path` and bring its schema up to date."""
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            conn.row_factory = aiosqlite.Row
            await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await conn.execute("PRAGMA journal_mode = WAL")
            await conn.execute("PRAGMA synchronous = NORMAL")
            await conn.execute("PRAGMA foreign_keys = ON")
            db = cls(conn)
            await db.migrate(bundled_migrations() if migrations is None else list(migrations))
        except BaseException:
            await conn.close()
            raise
        return db

    async def close(self) -> None:
        await self.conn.close()

    async def ping(self) -> bool:
        try:
            await self.fetch_one("SELECT 1")
        except (sqlite3.Error, ValueError):  # ValueError: the connection is closed
            return False
        return True

    async def schema_version(self) -> int:
        await self.conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)"
        )
        row = await self.fetch_one("SELECT max(version) AS version FROM schema_migrations")
        return int(row["version"]) if row and row["version"] is not None else 0

    async def migrate(self, migrations: list[Migration]) -> None:
        """Apply each pending migration in one transaction together with its record."""
        current = await self.schema_version()
        known = migrations[-1].version if migrations else 0
        if current > known:
            raise SchemaTooNewError(too_new_message(current, known))
        for migration in migrations:
            if migration.version > current:
                await self._apply(migration)

    async def _apply(self, migration: Migration) -> None:
        # executescript() commits any open transaction before it runs, so BEGIN and COMMIT
        # are part of the script itself; the record is written in the same transaction.
        record = (
            "INSERT INTO schema_migrations (version, name, applied_at) "
            f"VALUES ({migration.version}, '{migration.name}', {int(time.time() * 1000)});"
        )
        async with self._locked():
            try:
                await self.conn.executescript(
                    f"BEGIN IMMEDIATE;\n{migration.sql}\n{record}\nCOMMIT;"
                )
            except BaseException:
                if self.conn.in_transaction:
                    await self.conn.execute("ROLLBACK")
                raise

    @asynccontextmanager
    async def _locked(self) -> AsyncIterator[None]:
        task = asyncio.current_task()
        if task is not None and task is self._holder:
            # asyncio.Lock is not reentrant: waiting here would wait forever.
            raise RuntimeError("this task holds the write lock: write through its transaction")
        async with self._write_lock:
            self._holder = task
            try:
                yield
            finally:
                self._holder = None

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Conn]:
        """BEGIN IMMEDIATE … COMMIT, rolled back on any exception."""
        async with self._locked():
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield SqliteConn(self.conn)
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            await self.conn.execute("COMMIT")

    @asynccontextmanager
    async def autocommit(self) -> AsyncIterator[Conn]:
        """Statements that each commit on their own, kept out of any open transaction.

        The group answer path uses this: one round trip per statement, no BEGIN … COMMIT.
        """
        async with self._locked():
            yield SqliteConn(self.conn)

    async def execute(self, sql: Sql, params: Params = ()) -> int:
        """One write statement, committed on its own; returns how many rows it changed."""
        async with self._locked():
            return await super().execute(sql, params)

    async def executemany(self, sql: Sql, params: Iterable[Params]) -> None:
        async with self._locked():
            await super().executemany(sql, params)
