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

import asyncio
import fcntl
import heapq
import os
import sqlite3
import time
from collections.abc import AsyncGenerator, Iterator, Sequence
from contextlib import aclosing, closing, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

import asyncpg

from storage.migrations import SchemaTooNewError, too_new_message
from storage.postgres.migrate import MIGRATION_LOCK, migrate, schema_version
from storage.postgres.migrate import bundled_migrations as postgres_migrations
from storage.sqlite.db import bundled_migrations as sqlite_migrations
from storage.sqlite.store import SqliteStore

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
# Rows per COPY: large enough that a round trip costs little, small enough to stream.
BATCH_ROWS = 20_000
RECORDS = "schema_migrations"
# Leases and heartbeats of running processes: meaningless in another database.
RUNTIME_TABLES = ("replicas", "chat_claims")
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
# How a leaderboard ranks its rows: the ORDER BY of storage.sql.boards.TOP (a test checks it).
BOARD_ORDER = (
    "s.correct DESC, s.correct * 1.0 / s.answered DESC, s.reached_at NULLS LAST, s.user_id"
)
_BOARDS = (
    "SELECT s.chat_id, s.period, s.period_start, s.user_id, s.correct, s.answered, "
    "s.reached_at, s.streak, s.best_streak FROM period_scores AS s "
    f"ORDER BY s.chat_id, s.period, s.period_start, {BOARD_ORDER}"
)
DIFFERENCES_SHOWN = 5
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


class CopyError(RuntimeError):
    """The copy did not happen; the message says why."""


class CopyRefusedError(CopyError):
    """The source or the target is not fit for a copy; nothing was changed."""


class CopyFailedError(CopyError):
    """The copy was attempted and failed (connection, a row PostgreSQL refused…)."""


@dataclass(frozen=True)
class TableCopy:
    name: str
    rows: int


@dataclass(frozen=True)
class CopyReport:
    """What `copy_sqlite_to_postgres` did, and what its check found."""

    source: Path
    # The file's schema version before this copy migrated it; None when it was current.
    migrated_from: int | None
    schema_version: int
    # Copied, in the order they were copied, with the rows each has in both databases.
    tables: tuple[TableCopy, ...]
    not_copied: tuple[str, ...]
    # Leaderboards compared (one per chat, period kind and period).
    boards: int
    copy_seconds: float
    verify_seconds: float
    # Empty when the copy checked out: each names a table or a board that differs.
    differences: tuple[str, ...]
    # A quizbot process had FILE open: the copy is of the moment the snapshot began.
    source_in_use: bool

    @property
    def ok(self) -> bool:
        return not self.differences

    @property
    def rows(self) -> int:
        return sum(table.rows for table in self.tables)


@dataclass(frozen=True)
class _Table:
    name: str
    columns: tuple[str, ...]
    identity: str | None
    # Positions of DOUBLE PRECISION columns (SQLite may hand over an int for a REAL).
    floats: tuple[int, ...]


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
    version = _source_version(path)
    known = sqlite_migrations()[-1].version
    if version > known:
        raise SchemaTooNewError(f"{path}: {too_new_message(version, known)}")
    in_use = _in_use(path)
    if version < known and in_use:
        raise CopyRefusedError(
            f"{path} is at schema version {version} and a quizbot process is using it: stop "
            "it first (the copy would migrate the file under it); nothing was changed"
        )
    conn = await _connect(url)
    try:
        try:
            await _check_target(conn)
            migrated_from = None
            if version < known:
                # Kept even if the copy fails: it is what the bot does to the file on start.
                store = await SqliteStore.open(path)
                await store.close()
                migrated_from = version
        except (sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as error:
            raise CopyFailedError(f"preparing the copy failed: {error}") from error
        with _snapshot(path) as source:
            started = time.perf_counter()
            tables = await _copy(conn, source, batch_rows)
            await _analyze(conn, tables)
            copied = time.perf_counter()
            try:
                counted, differences = await _count(conn, source, tables)
                boards, board_differences = await _compare_boards(conn, source, batch_rows)
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


def _source_version(path: Path) -> int:
    """The file's schema version; CopyRefusedError unless it is a quizbot database."""
    if not path.is_file():
        raise CopyRefusedError(f"{path}: no such file; nothing was changed")
    try:
        # mode=rw: a file that vanished since is not created anew.
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True)) as conn:
            tables = {
                name
                for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            if not {RECORDS, "chats", "answers"} <= tables:
                raise CopyRefusedError(f"{path} is not a quizbot database; nothing was changed")
            (version,) = conn.execute(f"SELECT max(version) FROM {RECORDS}").fetchone()
    except sqlite3.DatabaseError as error:
        raise CopyRefusedError(
            f"{path} is not a quizbot database ({error}); nothing was changed"
        ) from error
    if not isinstance(version, int):
        raise CopyRefusedError(f"{path} is not a quizbot database; nothing was changed")
    return version


def _in_use(path: Path) -> bool:
    """Whether a quizbot process holds the file's lock (storage.sqlite.lock), without
    creating the lock file."""
    try:
        fd = os.open(path.with_name(path.name + ".lock"), os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # drops our lock too
    return False


async def _connect(url: str) -> asyncpg.Connection:
    try:
        return await asyncpg.connect(url)
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as error:
        raise CopyFailedError(f"cannot connect to the PostgreSQL database: {error}") from error


async def _check_target(conn: asyncpg.Connection) -> None:
    """SchemaTooNewError or CopyRefusedError unless the target is empty and not newer."""
    version = await schema_version(conn)
    known = postgres_migrations()[-1].version
    if version > known:
        raise SchemaTooNewError(f"the PostgreSQL database: {too_new_message(version, known)}")
    await _refuse_rows(conn)


async def _refuse_rows(conn: asyncpg.Connection) -> None:
    filled = []
    for table in [str(row[0]) for row in await conn.fetch(_LIST_TABLES)]:
        if table != RECORDS and await conn.fetchval(f"SELECT EXISTS (SELECT FROM {_q(table)})"):
            filled.append(table)
    if filled:
        raise CopyRefusedError(
            "the PostgreSQL database is not empty (rows in " + ", ".join(filled) + "): copy "
            "into a new, empty database; nothing was changed"
        )


@contextmanager
def _snapshot(path: Path) -> Iterator[sqlite3.Connection]:
    """A read transaction on the file, begun at once: every read through it sees the file as
    it was at this moment, whatever a running bot writes meanwhile."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        try:
            conn.execute("PRAGMA query_only = ON")
            conn.execute("BEGIN")
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()  # the snapshot starts
        except sqlite3.Error as error:
            raise CopyFailedError(f"cannot read {path}: {error}") from error
        yield conn
    finally:
        conn.close()


async def _copy(
    conn: asyncpg.Connection, source: sqlite3.Connection, batch_rows: int
) -> list[_Table]:
    """Migrate and fill the target in one transaction; the tables copied, in order."""
    current: str | None = None
    try:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await migrate(conn)
            keys = await conn.fetch(_FOREIGN_KEYS)
            tables = _in_order(await _target_tables(conn), keys)
            _check_source_tables(source, tables)
            names = ", ".join(_q(table.name) for table in tables)
            await conn.execute(f"LOCK TABLE {names} IN EXCLUSIVE MODE")
            await _refuse_rows(conn)
            copied = {table.name for table in tables}
            triggered = [
                str(row[0]) for row in await conn.fetch(_USER_TRIGGERS) if row[0] in copied
            ]
            for name in triggered:
                await conn.execute(f"ALTER TABLE {_q(name)} DISABLE TRIGGER USER")
            keys = [key for key in keys if key["child"] in copied]
            indexes = [i for i in await conn.fetch(_SECONDARY_INDEXES) if i["table_name"] in copied]
            for key in keys:
                await conn.execute(
                    f"ALTER TABLE {_q(key['child'])} DROP CONSTRAINT {_q(key['name'])}"
                )
            for index in indexes:
                await conn.execute(f"DROP INDEX {_q(index['name'])}")
            for table in tables:
                current = table.name
                await _copy_table(conn, source, table, batch_rows)
            current = None
            # Each index built in one sort, each key checked by one join: faster than an
            # insertion and a lookup per row, and the schema ends up as it was.
            await conn.execute(f"SET LOCAL maintenance_work_mem = '{INDEX_MEMORY}'")
            for index in indexes:
                await conn.execute(index["definition"])
            for key in keys:
                await conn.execute(
                    f"ALTER TABLE {_q(key['child'])} ADD CONSTRAINT {_q(key['name'])} "
                    f"{key['definition']}"
                )
            for name in triggered:
                await conn.execute(f"ALTER TABLE {_q(name)} ENABLE TRIGGER USER")
            for table in tables:
                if table.identity is not None:
                    await _restart_identity(conn, table.name, table.identity)
    except (sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as error:
        where = "the copy" if current is None else f"copying {current}"
        raise CopyFailedError(
            f"{where} failed, so the PostgreSQL database was left as it was: {error}"
        ) from error
    return tables


async def _analyze(conn: asyncpg.Connection, tables: list[_Table]) -> None:
    """Planner statistics for the copied rows, before a bot's first query needs them."""
    try:
        await conn.execute("ANALYZE " + ", ".join(_q(table.name) for table in tables))
    except (asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        raise CopyFailedError(f"the copy was committed, but ANALYZE failed: {error}") from error


async def _restart_identity(conn: asyncpg.Connection, table: str, column: str) -> None:
    """The next id the identity column hands out: one past the largest copied."""
    await conn.execute(
        "SELECT setval(pg_get_serial_sequence($1, $2), "
        f"coalesce(max({_q(column)}), 0) + 1, false) FROM {_q(table)}",
        _q(table),
        column,
    )


async def _target_tables(conn: asyncpg.Connection) -> dict[str, _Table]:
    """The tables the copy fills: the migrated schema's, less the records and runtime state."""
    columns: dict[str, list[Any]] = {}
    for row in await conn.fetch(_TABLES):
        columns.setdefault(str(row["table_name"]), []).append(row)
    return {
        name: _Table(
            name=name,
            columns=tuple(str(c["column_name"]) for c in found),
            identity=next((str(c["column_name"]) for c in found if c["is_identity"]), None),
            floats=tuple(i for i, c in enumerate(found) if c["is_float"]),
        )
        for name, found in columns.items()
        if name != RECORDS and name not in RUNTIME_TABLES
    }


def _in_order(tables: dict[str, _Table], keys: Sequence[Any]) -> list[_Table]:
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
    ordered: list[_Table] = []
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


def _check_source_tables(source: sqlite3.Connection, tables: list[_Table]) -> None:
    """The file must have every table and column the target has, and no table it has not."""
    found = {
        str(name)
        for (name,) in source.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    }
    extra = found - {t.name for t in tables} - {RECORDS, *RUNTIME_TABLES}
    if extra:
        raise CopyFailedError(f"the file has tables PostgreSQL lacks: {', '.join(sorted(extra))}")
    for table in tables:
        have = {str(row[1]) for row in source.execute(f"PRAGMA table_info({_q(table.name)})")}
        missing = [column for column in table.columns if column not in have]
        if missing:
            raise CopyFailedError(f"the file's {table.name} lacks columns {', '.join(missing)}")


async def _copy_table(
    conn: asyncpg.Connection, source: sqlite3.Connection, table: _Table, batch_rows: int
) -> None:
    columns = ", ".join(_q(column) for column in table.columns)
    cursor = source.execute(f"SELECT {columns} FROM {_q(table.name)}")
    async with aclosing(_batches(cursor, batch_rows)) as batches:
        async for batch in batches:
            records = _floats(batch, table.floats) if table.floats else batch
            await conn.copy_records_to_table(table.name, records=records, columns=table.columns)


async def _batches(cursor: sqlite3.Cursor, size: int) -> AsyncGenerator[list[Any], None]:
    """The cursor's rows, `size` at a time; the next batch is read in a thread while the
    caller works on this one."""
    fetch = partial(cursor.fetchmany, size)
    pending = asyncio.ensure_future(asyncio.to_thread(fetch))
    try:
        while batch := await pending:
            pending = asyncio.ensure_future(asyncio.to_thread(fetch))
            yield batch
    finally:
        # The thread must be done with the connection before anyone closes it.
        await asyncio.wait([pending])
        if not pending.cancelled():
            pending.exception()


def _floats(batch: list[Any], positions: tuple[int, ...]) -> list[tuple[Any, ...]]:
    return [
        tuple(
            float(value) if i in positions and value is not None else value
            for i, value in enumerate(row)
        )
        for row in batch
    ]


async def _count(
    conn: asyncpg.Connection, source: sqlite3.Connection, tables: list[_Table]
) -> tuple[list[TableCopy], list[str]]:
    """Each table's rows in the snapshot; a difference for each table PostgreSQL has not as
    many of."""
    counted, differences = [], []
    for table in tables:
        (expected,) = source.execute(f"SELECT count(*) FROM {_q(table.name)}").fetchone()
        got = await conn.fetchval(f"SELECT count(*) FROM {_q(table.name)}")
        counted.append(TableCopy(table.name, int(expected)))
        if got != expected:
            differences.append(f"{table.name}: {expected} rows in the file, {got} in PostgreSQL")
    return counted, differences


async def _compare_boards(
    conn: asyncpg.Connection, source: sqlite3.Connection, batch_rows: int
) -> tuple[int, list[str]]:
    """How many leaderboards the snapshot has, and the first ones that differ in PostgreSQL:
    both engines rank every board with its own ORDER BY and the rows must match in order."""
    boards, differences = 0, []
    board: tuple[Any, ...] | None = None
    place = 0
    differing: set[tuple[Any, ...]] = set()
    # SQLite sorts the whole table before the first row: in a thread.
    ranked = await asyncio.to_thread(source.execute, _BOARDS)
    async with conn.transaction(isolation="repeatable_read", readonly=True):
        theirs = _pg_rows(conn, _BOARDS, batch_rows)
        ours = _sqlite_rows(ranked, batch_rows)
        async with aclosing(theirs), aclosing(ours):
            while True:
                mine, other = await anext(ours, None), await anext(theirs, None)
                if mine is None and other is None:
                    break
                key = (mine or other or ())[:3]
                if key != board:
                    board, place = key, 0
                    boards += mine is not None
                place += 1
                if mine != other and key not in differing:
                    differing.add(key)
                    differences.append(
                        f"{_board_name(key)}, place {place}: {_score(mine)} in the file, "
                        f"{_score(other)} in PostgreSQL"
                    )
                    if len(differences) == DIFFERENCES_SHOWN:
                        break
    return boards, differences


async def _pg_rows(
    conn: asyncpg.Connection, query: str, size: int
) -> AsyncGenerator[tuple[Any, ...], None]:
    cursor = await conn.cursor(query)
    while batch := await cursor.fetch(size):
        for row in batch:
            yield tuple(row)


async def _sqlite_rows(cursor: sqlite3.Cursor, size: int) -> AsyncGenerator[tuple[Any, ...], None]:
    async with aclosing(_batches(cursor, size)) as batches:
        async for batch in batches:
            for row in batch:
                yield tuple(row)


def _board_name(key: tuple[Any, ...]) -> str:
    chat_id, period, start = key
    if period == "all":
        return f"chat {chat_id} all-time board"
    begins = datetime.fromtimestamp(start / 1000, UTC)
    return f"chat {chat_id} {period} board from {begins:%Y-%m-%d %H:%M} UTC"


def _score(row: tuple[Any, ...] | None) -> str:
    if row is None:
        return "nobody"
    user, correct, answered, reached, streak, best = row[3:]
    return (
        f"user {user} ({correct}/{answered} right, reached at {reached}, "
        f"streak {streak}, best {best})"
    )


def _q(identifier: str) -> str:
    """An SQL identifier, quoted for either engine."""
    return '"' + identifier.replace('"', '""') + '"'
