"""Copying a SQLite database into an empty PostgreSQL one, and checking the copy
(`python -m bot copy-to-postgres FILE URL`).

What it does, in order; every refusal comes before anything is changed:

1. Refuses a URL that is not postgresql:// or postgres://, a FILE that is missing or is not a
   quizbot database, a FILE a newer quizbot wrote (`SchemaTooNewError`), and a target that
   holds a row in any table (an empty database, or one with only the migrated empty schema,
   is fine). A FILE at an older schema version is migrated first (`SqliteStore.open`).
2. Reads FILE in one read transaction (a WAL snapshot): a bot still writing to it cannot tear
   the copy, but what it writes after the snapshot is not copied. Stop the bot first.
3. In ONE PostgreSQL transaction, holding the migration lock (so a replica that starts on the
   target waits for the copy): runs the PostgreSQL migrations, checks again that every table is
   empty, then copies every table of the schema in foreign-key order with binary COPY
   (`copy_records_to_table`), `BATCH_ROWS` rows at a time, streamed from SQLite (the next batch
   is read in a thread while the current one is sent). A failure rolls everything back,
   schema included: the target is left as it was.
4. The triggers on `answers` keep `period_scores` (leaderboards) and `learning_log` on INSERT.
   Those two tables are copied verbatim, so the triggers are disabled for the copy
   (`ALTER TABLE … DISABLE TRIGGER USER`, inside the transaction, re-enabled before the commit;
   other sessions never see them off). Copying `answers` with them on would count every answer
   twice.
5. Speed: the foreign keys of the copied tables and their indexes other than primary keys and
   UNIQUE constraints are dropped for the copy and re-created before the commit, from
   PostgreSQL's own definitions of them (`pg_get_constraintdef`, `pg_get_indexdef`): one sorted
   build per index and one join per key instead of an index insertion and a key lookup per
   row, 2–3 times faster. Every key is still checked (a row of FILE that points at nothing
   fails the copy), and the schema ends up exactly as the migrations made it (a test compares).
   Then ANALYZE, so that the bot's first queries are planned with statistics.
6. Identity columns got their ids from FILE: each sequence is set past the largest copied id,
   so the next ask, answer, round… gets a new one.
7. `schema_migrations` is not copied (the target records its own migrations); `replicas` and
   `chat_claims` are runtime state of running processes (heartbeats, send leases) and are not
   copied either (a SQLite bot never writes them).
8. After the commit: the row count of every copied table must equal the snapshot's, and every
   leaderboard (each chat, period kind and period) must list the same rows in the same order,
   ranked by each engine with the boards' own ORDER BY (`storage.sql.boards.TOP`).
"""

from __future__ import annotations

import sqlite3
import time
from contextlib import aclosing
from pathlib import Path

import asyncpg

from storage.copy.catalog import (
    analyze,
    check_target,
    disable_triggers,
    enable_triggers,
    foreign_keys,
    in_order,
    refuse_rows,
    restart_identity,
    restore,
    set_aside,
    target_tables,
)
from storage.copy.check import compare_boards, count
from storage.copy.model import (
    RECORDS,
    RUNTIME_TABLES,
    CopyFailedError,
    CopyRefusedError,
    Table,
    quote,
)
from storage.copy.model import CopyReport as CopyReport
from storage.copy.source import (
    batches,
    check_source_tables,
    floats,
    snapshot,
    source_in_use,
    source_version,
)
from storage.migrations import SchemaTooNewError, too_new_message
from storage.postgres.migrate import MIGRATION_LOCK, migrate
from storage.sqlite.db import bundled_migrations as sqlite_migrations
from storage.sqlite.store import SqliteStore

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
# Rows per COPY: large enough that a round trip costs little, small enough to stream.
BATCH_ROWS = 20_000


async def copy_sqlite_to_postgres(
    path: Path, url: str, *, batch_rows: int = BATCH_ROWS
) -> CopyReport:
    """Copy the quizbot database in the SQLite file at `path` into the empty PostgreSQL
    database at `url`, then compare them.

    Raises CopyRefusedError or SchemaTooNewError (nothing changed) for an unfit source or target,
    CopyFailedError when the copy fails (the target left as it was). A copy that commits but does
    not check out is returned with its `differences`.
    """
    if not url.startswith(POSTGRES_SCHEMES):
        raise CopyRefusedError(
            "the target must be a PostgreSQL URL (postgresql://user:password@host:port/db); "
            "nothing was changed"
        )
    version = source_version(path)
    known = sqlite_migrations()[-1].version
    if version > known:
        raise SchemaTooNewError(f"{path}: {too_new_message(version, known)}")
    in_use = source_in_use(path)
    if version < known and in_use:
        raise CopyRefusedError(
            f"{path} is at schema version {version} and a quizbot process is using it: stop "
            "it first (the copy would migrate the file under it); nothing was changed"
        )
    conn = await _connect(url)
    try:
        try:
            await check_target(conn)
            migrated_from = None
            if version < known:
                # Kept even if the copy fails: it is what the bot does to the file on start.
                store = await SqliteStore.open(path)
                await store.close()
                migrated_from = version
        except (sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as error:
            raise CopyFailedError(f"preparing the copy failed: {error}") from error
        with snapshot(path) as source:
            started = time.perf_counter()
            tables = await _copy(conn, source, batch_rows)
            await analyze(conn, tables)
            copied = time.perf_counter()
            try:
                counted, differences = await count(conn, source, tables)
                boards, board_differences = await compare_boards(conn, source, batch_rows)
            except (sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                raise CopyFailedError(
                    f"the copy was committed, but checking it failed: {error}"
                ) from error
            verified = time.perf_counter()
    finally:
        await conn.close()
    return CopyReport(
        source=path,
        migrated_from=migrated_from,
        schema_version=known,
        tables=tuple(counted),
        not_copied=(RECORDS, *RUNTIME_TABLES),
        boards=boards,
        copy_seconds=copied - started,
        verify_seconds=verified - copied,
        differences=(*differences, *board_differences),
        source_in_use=in_use,
    )


async def _connect(url: str) -> asyncpg.Connection:
    try:
        return await asyncpg.connect(url)
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as error:
        raise CopyFailedError(f"cannot connect to the PostgreSQL database: {error}") from error


async def _copy(
    conn: asyncpg.Connection, source: sqlite3.Connection, batch_rows: int
) -> list[Table]:
    """Migrate and fill the target in one transaction; the tables copied, in order."""
    current: str | None = None
    try:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await migrate(conn)
            keys = await foreign_keys(conn)
            tables = in_order(await target_tables(conn), keys)
            check_source_tables(source, tables)
            names = ", ".join(quote(table.name) for table in tables)
            await conn.execute(f"LOCK TABLE {names} IN EXCLUSIVE MODE")
            await refuse_rows(conn)
            copied = {table.name for table in tables}
            triggered = await disable_triggers(conn, copied)
            aside = await set_aside(conn, keys, copied)
            for table in tables:
                current = table.name
                await _copy_table(conn, source, table, batch_rows)
            current = None
            await restore(conn, aside)
            await enable_triggers(conn, triggered)
            for table in tables:
                if table.identity is not None:
                    await restart_identity(conn, table.name, table.identity)
    except (sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as error:
        where = "the copy" if current is None else f"copying {current}"
        raise CopyFailedError(
            f"{where} failed, so the PostgreSQL database was left as it was: {error}"
        ) from error
    return tables


async def _copy_table(
    conn: asyncpg.Connection, source: sqlite3.Connection, table: Table, batch_rows: int
) -> None:
    columns = ", ".join(quote(column) for column in table.columns)
    cursor = source.execute(f"SELECT {columns} FROM {quote(table.name)}")
    async with aclosing(batches(cursor, batch_rows)) as rows:
        async for batch in rows:
            records = floats(batch, table.floats) if table.floats else batch
            await conn.copy_records_to_table(table.name, records=records, columns=table.columns)
