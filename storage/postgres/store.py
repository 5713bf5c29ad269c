"""`PostgresStore`: every storage port of the quiz core, on a PostgreSQL database."""

from __future__ import annotations

from storage.postgres.db import PostgresDatabase
from storage.sql.store import SqlStore


class PostgresStore(SqlStore):
    """A pool of connections; several processes may share the database."""

    @classmethod
    async def open(cls, url: str, *, pool_size: int = 10) -> PostgresStore:
        """Connect to `url` and bring its schema up to date (under an advisory lock, so that
        replicas starting together migrate once); `SchemaTooNewError` if a newer quizbot
        wrote it (left unchanged)."""
        return cls(await PostgresDatabase.open(url, pool_size=pool_size))
