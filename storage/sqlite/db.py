"""The SQLite connection: opening with the right PRAGMAs, numbered migrations, transactions."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import aiosqlite

BUSY_TIMEOUT_MS = 5000
_MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")

# What a statement's parameters may be: positional values or named ones.
Params = Iterable[object] | dict[str, object]


class SchemaTooNewError(RuntimeError):
    """The database was written by a newer quizbot; refusing it keeps it intact."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def bundled_migrations() -> list[Migration]:
    """The migrations shipped in `storage/sqlite/migrations`, in version order."""
    found: list[Migration] = []
    for entry in resources.files(__package__ or "storage.sqlite").joinpath("migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..n without gaps, found {versions}")
    return found


class Database:
    """One aiosqlite connection. Writes go through `transaction()` or `autocommit()`."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        # One connection is shared by every coroutine: statements of two transactions
        # must not interleave, so a writer holds this lock from BEGIN to COMMIT.
        self._write_lock = asyncio.Lock()
        self._holder: asyncio.Task[object] | None = None

    @classmethod
    async def open(cls, path: Path, migrations: Iterable[Migration] | None = None) -> Database:
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
            raise SchemaTooNewError(
                f"the database has schema version {current}, but this quizbot only knows "
                f"versions up to {known}; it was written by a newer release. Upgrade quizbot "
                "or point QUIZBOT_DATABASE at another file (the database was not changed)."
            )
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
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """BEGIN IMMEDIATE … COMMIT, rolled back on any exception."""
        async with self._locked():
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            await self.conn.execute("COMMIT")

    @asynccontextmanager
    async def autocommit(self) -> AsyncIterator[aiosqlite.Connection]:
        """Statements that each commit on their own, kept out of any open transaction.

        The group answer path uses this: one round trip per statement, no BEGIN … COMMIT.
        """
        async with self._locked():
            yield self.conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        """One write statement, committed on its own; returns how many rows it changed."""
        async with self.autocommit() as conn:
            cursor = await conn.execute(sql, _params(params))
            return cursor.rowcount

    async def fetch_all(self, sql: str, params: Params = ()) -> list[aiosqlite.Row]:
        async with self.conn.execute(sql, _params(params)) as cursor:
            return list(await cursor.fetchall())

    async def fetch_one(self, sql: str, params: Params = ()) -> aiosqlite.Row | None:
        async with self.conn.execute(sql, _params(params)) as cursor:
            return await cursor.fetchone()


def _params(params: Params) -> tuple[object, ...] | dict[str, object]:
    return params if isinstance(params, dict) else tuple(params)
