"""`SqliteStore`: every storage port of the quiz core, on one SQLite file."""

from __future__ import annotations

from pathlib import Path

from storage.sql.store import SqlStore
from storage.sqlite.db import SqliteDatabase


class SqliteStore(SqlStore):
    """One aiosqlite connection shared by every coroutine; writes are serialised by a lock.
    Reads on it also see a transaction that is open at that moment."""

    @classmethod
    async def open(cls, path: Path | str) -> SqliteStore:
        """Open (creating it and its folder if needed) the database at `path` and bring its
        schema up to date; `SchemaTooNewError` if a newer quizbot wrote it (left unchanged)."""
        return cls(await SqliteDatabase.open(Path(path)))
