"""The PostgreSQL side of the copy (storage/copy/), read from and acted on through its
catalog: the target's tables and their order, refusing a target with rows, the foreign keys,
indexes and triggers set aside for the copy, identity sequences, ANALYZE."""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import asyncpg

from storage.copy.model import (
    RECORDS,
    RUNTIME_TABLES,
    CopyFailedError,
    CopyRefusedError,
    Table,
    quote,
)
from storage.migrations import SchemaTooNewError, too_new_message
from storage.postgres.migrate import bundled_migrations as postgres_migrations
from storage.postgres.migrate import schema_version

# The order the tables are copied in where the foreign keys leave a choice (a table not named
# here comes after the ones it refers to, by name).
PREFERRED_ORDER = (
    "chats",
    "users",
    "rounds",
    "asks",
    "answers",
    "period_scores",
    "learning_log",
    "cards",
    "daily_schedules",
    "daily_pushes",
    "reports",
    "exams",
    "exam_questions",
    "effects",
)
# For re-creating the indexes after the copy (this transaction only).
INDEX_MEMORY = "256MB"

# The tables of the schema the migrations write to (the first of the search path).
_HERE = "(SELECT oid FROM pg_namespace WHERE nspname = current_schema())"
_TABLES = f"""
SELECT c.relname AS table_name, a.attname AS column_name, a.attidentity <> '' AS is_identity,
       a.atttypid = 'double precision'::regtype AS is_float
FROM pg_class AS c JOIN pg_attribute AS a ON a.attrelid = c.oid
WHERE c.relnamespace = {_HERE}
  AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
ORDER BY c.relname, a.attnum
"""
_FOREIGN_KEYS = f"""
SELECT c.relname AS child, p.relname AS parent, f.conname AS name,
       pg_get_constraintdef(f.oid) AS definition
FROM pg_constraint AS f JOIN pg_class AS c ON c.oid = f.conrelid
JOIN pg_class AS p ON p.oid = f.confrelid
WHERE f.contype = 'f' AND c.relnamespace = {_HERE}
ORDER BY c.relname, f.conname
"""
# The indexes that back no PRIMARY KEY or UNIQUE constraint.
_SECONDARY_INDEXES = f"""
SELECT t.relname AS table_name, x.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
FROM pg_index AS i JOIN pg_class AS t ON t.oid = i.indrelid
JOIN pg_class AS x ON x.oid = i.indexrelid
WHERE t.relnamespace = {_HERE} AND NOT EXISTS (
    SELECT FROM pg_constraint AS k WHERE k.conindid = i.indexrelid AND k.conrelid = i.indrelid)
ORDER BY t.relname, x.relname
"""
_USER_TRIGGERS = f"""
SELECT DISTINCT c.relname FROM pg_trigger AS t JOIN pg_class AS c ON c.oid = t.tgrelid
WHERE NOT t.tgisinternal
  AND c.relnamespace = {_HERE}
ORDER BY 1
"""
_LIST_TABLES = f"""
SELECT c.relname FROM pg_class AS c
WHERE c.relnamespace = {_HERE}
  AND c.relkind IN ('r', 'p') ORDER BY 1
"""


@dataclass(frozen=True)
class SetAside:
    """The foreign keys and secondary indexes of the copied tables, dropped for the copy."""

    keys: list[Any]
    indexes: list[Any]


async def check_target(conn: asyncpg.Connection) -> None:
    """SchemaTooNewError or CopyRefusedError unless the target is empty and not newer."""
    version = await schema_version(conn)
    known = postgres_migrations()[-1].version
    if version > known:
        raise SchemaTooNewError(f"the PostgreSQL database: {too_new_message(version, known)}")
    await refuse_rows(conn)


async def refuse_rows(conn: asyncpg.Connection) -> None:
    """CopyRefusedError if any table but the migration records holds a row."""
    filled = []
    for table in [str(row[0]) for row in await conn.fetch(_LIST_TABLES)]:
        if table != RECORDS and await conn.fetchval(f"SELECT EXISTS (SELECT FROM {quote(table)})"):
            filled.append(table)
    if filled:
        raise CopyRefusedError(
            "the PostgreSQL database is not empty (rows in " + ", ".join(filled) + "): copy "
            "into a new, empty database; nothing was changed"
        )


async def foreign_keys(conn: asyncpg.Connection) -> list[Any]:
    """Every foreign key of the schema: child, parent, name and definition."""
    return list(await conn.fetch(_FOREIGN_KEYS))


async def target_tables(conn: asyncpg.Connection) -> dict[str, Table]:
    """The tables the copy fills: the migrated schema's, less the records and runtime state."""
    columns: dict[str, list[Any]] = {}
    for row in await conn.fetch(_TABLES):
        columns.setdefault(str(row["table_name"]), []).append(row)
    return {
        name: Table(
            name=name,
            columns=tuple(str(c["column_name"]) for c in found),
            identity=next((str(c["column_name"]) for c in found if c["is_identity"]), None),
            floats=tuple(i for i, c in enumerate(found) if c["is_float"]),
        )
        for name, found in columns.items()
        if name != RECORDS and name not in RUNTIME_TABLES
    }


def in_order(tables: dict[str, Table], keys: Sequence[Any]) -> list[Table]:
    """Parents before children (PREFERRED_ORDER where the keys leave a choice)."""
    parents: dict[str, set[str]] = {name: set() for name in tables}
    for child, parent in ((str(k["child"]), str(k["parent"])) for k in keys):
        if child in tables and parent in tables and child != parent:
            parents[child].add(parent)

    def rank(name: str) -> tuple[int, str]:
        known = name in PREFERRED_ORDER
        return (PREFERRED_ORDER.index(name) if known else len(PREFERRED_ORDER), name)

    ready = [rank(name) for name, needs in parents.items() if not needs]
    heapq.heapify(ready)
    ordered: list[Table] = []
    while ready:
        _, name = heapq.heappop(ready)
        ordered.append(tables[name])
        for child, needs in parents.items():
            if name in needs:
                needs.discard(name)
                if not needs:
                    heapq.heappush(ready, rank(child))
    if len(ordered) != len(tables):
        cycle = sorted(set(tables) - {t.name for t in ordered})
        raise CopyFailedError(f"the foreign keys of {', '.join(cycle)} form a cycle")
    return ordered


async def disable_triggers(conn: asyncpg.Connection, copied: set[str]) -> list[str]:
    """Turn off the user triggers of the copied tables (this transaction only); the tables."""
    triggered = [str(row[0]) for row in await conn.fetch(_USER_TRIGGERS) if row[0] in copied]
    for name in triggered:
        await conn.execute(f"ALTER TABLE {quote(name)} DISABLE TRIGGER USER")
    return triggered


async def enable_triggers(conn: asyncpg.Connection, triggered: list[str]) -> None:
    for name in triggered:
        await conn.execute(f"ALTER TABLE {quote(name)} ENABLE TRIGGER USER")


async def set_aside(conn: asyncpg.Connection, keys: list[Any], copied: set[str]) -> SetAside:
    """Drop the foreign keys and the secondary indexes of the copied tables, keeping their
    definitions for `restore`."""
    keys = [key for key in keys if key["child"] in copied]
    indexes = [i for i in await conn.fetch(_SECONDARY_INDEXES) if i["table_name"] in copied]
    for key in keys:
        await conn.execute(
            f"ALTER TABLE {quote(key['child'])} DROP CONSTRAINT {quote(key['name'])}"
        )
    for index in indexes:
        await conn.execute(f"DROP INDEX {quote(index['name'])}")
    return SetAside(keys, indexes)


async def restore(conn: asyncpg.Connection, aside: SetAside) -> None:
    """Re-create what `set_aside` dropped, from PostgreSQL's own definitions."""
    # Each index built in one sort, each key checked by one join: faster than an
    # insertion and a lookup per row, and the schema ends up as it was.
    await conn.execute(f"SET LOCAL maintenance_work_mem = '{INDEX_MEMORY}'")
    for index in aside.indexes:
        await conn.execute(index["definition"])
    for key in aside.keys:
        await conn.execute(
            f"ALTER TABLE {quote(key['child'])} ADD CONSTRAINT {quote(key['name'])} "
            f"{key['definition']}"
        )


async def restart_identity(conn: asyncpg.Connection, table: str, column: str) -> None:
    """The next id the identity column hands out: one past the largest copied."""
    await conn.execute(
        "SELECT setval(pg_get_serial_sequence($1, $2), "
        f"coalesce(max({quote(column)}), 0) + 1, false) FROM {quote(table)}",
        quote(table),
        column,
    )


async def analyze(conn: asyncpg.Connection, tables: list[Table]) -> None:
    """Planner statistics for the copied rows, before a bot's first query needs them."""
    try:
        await conn.execute("ANALYZE " + ", ".join(quote(table.name) for table in tables))
    except (asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        raise CopyFailedError(f"the copy was committed, but ANALYZE failed: {error}") from error
