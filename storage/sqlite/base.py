"""What every per-concern part of `SqliteStore` shares: the database and `Store.transaction()`."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from storage.sqlite.db import Database
from storage.sqlite.writes import SqliteWrites


class StoreBase:
    def __init__(self, db: Database) -> None:
        self._db = db

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteWrites]:
        """Writes that commit together at the end of the block (BEGIN IMMEDIATE … COMMIT),
        or not at all when it raises. The block holds the connection's write lock: a store
        method that writes must not be awaited inside it (that raises RuntimeError)."""
        async with self._db.transaction() as conn:
            yield SqliteWrites(conn)

    @asynccontextmanager
    async def _autocommit(self) -> AsyncIterator[SqliteWrites]:
        """Writes that each commit on their own (for single statements and the answer path)."""
        async with self._db.autocommit() as conn:
            yield SqliteWrites(conn)
