"""Bringing a PostgreSQL database's schema up to date with the numbered migrations.

Replicas that start together migrate one at a time: each holds a session advisory lock on its
connection while it reads the version and applies what is pending. Each migration commits
together with its `schema_migrations` row, so a failure leaves the previous version whole.
"""

from __future__ import annotations

import time

import asyncpg

from storage.migrations import Migration, SchemaTooNewError, load_migrations, too_new_message

# The advisory lock key every quizbot takes to migrate: "quizbot" in ASCII, as a bigint.
MIGRATION_LOCK = 0x71_75_69_7A_62_6F_74

_CREATE_RECORDS = (
    "CREATE TABLE IF NOT EXISTS schema_migrations ("
    " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)"
)
_RECORD = "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)"


def bundled_migrations() -> list[Migration]:
    """The migrations shipped in `storage/postgres/migrations`, in version order."""
    return load_migrations("storage.postgres")


async def schema_version(conn: asyncpg.Connection) -> int:
    """The newest migration applied to the database; 0 when none is (it changes nothing)."""
    if await conn.fetchval("SELECT to_regclass('schema_migrations')") is None:
        return 0
    version = await conn.fetchval("SELECT max(version) FROM schema_migrations")
    return 0 if version is None else int(version)


async def migrate(conn: asyncpg.Connection, migrations: list[Migration] | None = None) -> None:
    """Apply each pending migration in one transaction with its record, under the lock.

    Raises SchemaTooNewError, changing nothing, when the database has a newer version than
    the newest migration known here.
    """
    known_migrations = bundled_migrations() if migrations is None else migrations
    await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    try:
        await conn.execute(_CREATE_RECORDS)
        current = await schema_version(conn)
        known = known_migrations[-1].version if known_migrations else 0
        if current > known:
            raise SchemaTooNewError(too_new_message(current, known))
        for migration in known_migrations:
            if migration.version > current:
                async with conn.transaction():
                    # No arguments: the simple query protocol, which runs a whole script.
                    await conn.execute(migration.sql)
                    await conn.execute(
                        _RECORD, migration.version, migration.name, int(time.time() * 1000)
                    )
    finally:
        if not conn.is_closed():
            await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
