"""The PostgreSQL migrations against the SQLite ones, and the PostgreSQL migration runner.

The schemas are compared as tests/storage/schema_dump.py reads them (its docstring says what
is compared, and how the indexes behind PRIMARY KEY / UNIQUE constraints are treated); the data
comparison writes the same rows into both engines between migrations and compares every table.
"""

from __future__ import annotations

import asyncio
import itertools
import re
import sqlite3
from collections.abc import Sequence
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import pytest

from storage.migrations import Migration, SchemaTooNewError, load_migrations, too_new_message
from storage.postgres.migrate import MIGRATION_LOCK, bundled_migrations, migrate, schema_version
from storage.sqlite.db import SqliteDatabase
from storage.sqlite.db import bundled_migrations as sqlite_migrations
from tests.storage.schema_dump import Schema, pg_schema, sqlite_schema

# Ids the database hands out (SQLite rowids, PostgreSQL identities); chats.id, users.id and
# daily_schedules.chat_id are Telegram's and always given.
GENERATED_IDS = {"asks", "answers", "rounds", "effects", "reports", "exams"}
BIGINT_NAMES = re.compile(
    r"^(id|at|due|deadline|last_review|not_before|until)$|_(id|at|by|ms|until|start)$"
)
NEWEST = len(sqlite_migrations())
Statement = tuple[str, Sequence[object]]


async def _pg(url: str, migrations: list[Migration] | None = None) -> Schema:
    conn = await asyncpg.connect(url)
    try:
        await migrate(conn, migrations)
        return await pg_schema(conn)
    finally:
        await conn.close()


async def _sqlite(path: Path, migrations: list[Migration] | None = None) -> Schema:
    db = await SqliteDatabase.open(path, migrations)
    await db.close()
    return sqlite_schema(path)


async def _own_advisory_locks(conn: asyncpg.Connection) -> int:
    """How many times this session holds the migration lock (a bigint key: two oids)."""
    sql = (
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()"
        " AND objsubid = 1 AND (classid::int8 << 32 | objid::int8) = $1"
    )
    return int(await conn.fetchval(sql, MIGRATION_LOCK))


def test_postgres_tree_mirrors_sqlite_tree_one_to_one() -> None:
    """Both engines ship the same migration numbers with the same names."""
    pg = [(m.version, m.name) for m in bundled_migrations()]
    assert pg == [(m.version, m.name) for m in sqlite_migrations()]


def test_load_migrations_requires_versions_one_to_n(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Files not named NNNN_name.sql are skipped, and a gap in the numbering is refused."""
    tree = tmp_path / "quizbot_gappy" / "migrations"
    tree.mkdir(parents=True)
    (tree.parent / "__init__.py").write_text("")
    (tree / "0001_one.sql").write_text("SELECT 1;")
    (tree / "README.md").write_text("not a migration")
    monkeypatch.syspath_prepend(tmp_path)
    assert load_migrations("quizbot_gappy") == [Migration(1, "one", "SELECT 1;")]
    (tree / "0003_three.sql").write_text("SELECT 3;")
    with pytest.raises(RuntimeError, match="without gaps"):
        load_migrations("quizbot_gappy")


async def test_postgres_schema_matches_sqlite_schema(pg_url: str, tmp_path: Path) -> None:
    """Tables, columns, keys, checks, foreign keys, indexes and triggers are the same."""
    lite, pg = await _sqlite(tmp_path / "quiz.sqlite3"), await _pg(pg_url)
    assert sorted(pg["tables"]) == sorted(lite["tables"])
    for name, table in lite["tables"].items():
        for part in ("columns", "key", "uniques", "checks", "fks"):
            assert (name, part, pg["tables"][name][part]) == (name, part, table[part])
    assert pg["indexes"] == lite["indexes"]
    assert pg["triggers"] == lite["triggers"]


async def test_ids_and_millisecond_times_are_bigint_and_generated_ids_identities(
    pg_migrated_url: str,
) -> None:
    """Ids, Telegram ids and ms times are BIGINT; only the database's own ids are identities."""
    conn = await asyncpg.connect(pg_migrated_url)
    try:
        rows = await conn.fetch(
            "SELECT table_name, column_name, data_type, is_identity FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND data_type IN ('bigint', 'integer')"
        )
    finally:
        await conn.close()
    for row in rows:
        table, column = row["table_name"], row["column_name"]
        wide = BIGINT_NAMES.search(column) and (table, column) != ("schema_migrations", "version")
        assert (table, column, row["data_type"]) == (table, column, "bigint" if wide else "integer")
    identities = {(r["table_name"], r["column_name"]) for r in rows if r["is_identity"] == "YES"}
    assert identities == {(table, "id") for table in GENERATED_IDS}


def _ms(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> int:
    return int(datetime(year, month, day, hour, minute, tzinfo=UTC).timestamp() * 1000)


def _answers(first_ask: int, times: list[int], right: dict[int, str]) -> list[Statement]:
    """Each user answers the asks from `first_ask` on, `right[user]` saying which were right."""
    sql = (
        "INSERT INTO answers (ask_id, user_id, chat_id, position, correct, answered_at)"
        " VALUES (?, ?, -100, ?, ?, ?)"
    )
    return [
        (sql, (first_ask + i, user, 0 if flag == "1" else 2, int(flag), at + user // 3))
        for user, flags in right.items()
        for i, (at, flag) in enumerate(zip(times, flags, strict=True))
    ]


# Times at period edges: a Sunday's last ms and the Monday after, a month's end, a new year.
EDGES = [
    _ms(2025, 12, 31, 23, 59) + 59_999,
    _ms(2026, 1, 1),
    _ms(2026, 2, 28, 12),
    _ms(2026, 3, 1, 23, 59) + 59_999,
    _ms(2026, 3, 2),
    _ms(2026, 3, 2),
]
ASK = (
    "INSERT INTO asks (chat_id, deck_id, question_id, pass_no, option_order, asked_at)"
    " VALUES (?, 'deck', ?, 1, '0,1,2', ?)"
)
ROUND_ASK = (
    "INSERT INTO asks (chat_id, deck_id, question_id, pass_no, option_order, asked_at, round_id)"
    " VALUES (-100, 'deck', ?, 1, '0,1,2', ?, ?)"
)
T = _ms(2026, 3, 3, 9)
ANSWER_AT_7 = (
    "INSERT INTO answers (ask_id, user_id, chat_id, position, correct, answered_at, week_start,"
    " month_start) VALUES (7, ?, -100, 0, ?, ?, ?, ?)"
)
EFFECT = "INSERT INTO effects (chat_id, kind, ask_id, round_id, not_before, created_at) VALUES"
# Before 0002: its week/month and streak backfill.
AT_V1: list[Statement] = [
    ("INSERT INTO chats (id, kind, title, created_at) VALUES (-100, 'group', 'G', 1)", ()),
    ("INSERT INTO chats (id, kind, created_at) VALUES (-200, 'supergroup', 1)", ()),
    *[
        ("INSERT INTO users (id, first_name, updated_at) VALUES (?, 'U', 1)", (u,))
        for u in (1, 2, 3)
    ],
    *[(ASK, (-100, f"q{i}", at - 5000)) for i, at in enumerate(EDGES)],
    *_answers(1, EDGES, {1: "110111", 2: "111010", 3: "000001"}),
]
# Before 0005 (its origin backfill), scored by the trigger.
AT_V4: list[Statement] = [
    ("INSERT INTO rounds (chat_id, started_by, size, started_at) VALUES (-100, 1, 3, ?)", (T,)),
    (ROUND_ASK, ("q1", T, 1)),
    (ASK, (-200, "q2", T)),
    (
        "INSERT INTO daily_pushes (chat_id, local_day, slot_at, status, ask_id, created_at)"
        " VALUES (-200, '2026-03-03', ?, 'sent', 8, ?)",
        (T, T),
    ),
    *[
        (ANSWER_AT_7, (user, right, T + 900 * user, _ms(2026, 3, 2), _ms(2026, 3, 1)))
        for user, right in ((1, 1), (2, 0), (3, 1))
    ],
]
# Before 0006 and 0008 widen the outbox.
AT_V5: list[Statement] = [
    (f"{EFFECT} (-100, ?, 7, 1, ?, ?)", (kind, T, T)) for kind in ("question", "summary")
]
# At the end: a review answer; one given before its ask (no negative time); one question twice
# in the same ms (logged once).
AT_END: list[Statement] = [
    ("UPDATE rounds SET ended_at = ?, end_reason = 'finished' WHERE id = 1", (T + 5,)),
    (
        "INSERT INTO rounds (chat_id, started_by, size, started_at, kind)"
        " VALUES (-100, 1, 2, ?, 'review')",
        (T + 10,),
    ),
    (ROUND_ASK, ("q3", T + 10, 2)),
    (ASK, (-100, "q4", T + 5000)),
    (ASK, (-100, "q4", T + 20)),
    *_answers(9, [T + 4000, T + 4100, T + 4100], {1: "101", 2: "010"}),
    (f"{EFFECT} (-100, 'exam_result', NULL, NULL, ?, ?)", (T, T)),
    ("INSERT INTO cards VALUES (1, 'deck', 'q4', ?, 2.5, 5.25, 1, NULL, 1, 0)", (T,)),
]
STAGES = [(1, AT_V1), (4, AT_V4), (5, AT_V5), (NEWEST, AT_END)]


def _dollars(sql: str) -> str:
    """`?` placeholders as PostgreSQL's `$1`, `$2`…"""
    numbers = itertools.count(1)
    return re.sub(r"\?", lambda _: f"${next(numbers)}", sql)


def _sorted(rows: Sequence[Sequence[object]]) -> list[tuple[object, ...]]:
    return sorted((tuple(r) for r in rows), key=lambda r: [(v is None, v or 0) for v in r])


async def test_data_written_between_migrations_comes_out_the_same(
    pg_url: str, tmp_path: Path
) -> None:
    """The backfills and the answer triggers leave every table with the same rows in both."""
    path, pg_rows, lite_rows = tmp_path / "quiz.sqlite3", {}, {}
    conn = await asyncpg.connect(pg_url)
    try:
        for version, statements in STAGES:
            await _sqlite(path, sqlite_migrations()[:version])
            await migrate(conn, bundled_migrations()[:version])
            with closing(sqlite3.connect(path)) as db:
                db.execute("PRAGMA foreign_keys = ON")
                for sql, params in statements:
                    db.execute(sql, params)
                    await conn.execute(_dollars(sql), *params)
                db.commit()
        with closing(sqlite3.connect(path)) as db:
            for table in sqlite_schema(path)["tables"]:
                columns = "version, name" if table == "schema_migrations" else "*"
                lite_rows[table] = _sorted(db.execute(f"SELECT {columns} FROM {table}").fetchall())
                pg_rows[table] = _sorted(await conn.fetch(f"SELECT {columns} FROM {table}"))
    finally:
        await conn.close()
    assert pg_rows == lite_rows
    assert {row[1] for row in lite_rows["period_scores"]} == {"week", "month", "all"}
    assert {(row[5], row[6]) for row in lite_rows["learning_log"]} >= {
        (0, "quiz"),
        (3990, "review"),
    }
    assert {row[3] for row in lite_rows["effects"]} == {"question", "summary", "exam_result"}


async def test_second_migrate_changes_nothing(pg_url: str) -> None:
    """migrate() on an up-to-date database applies nothing, keeps its records and unlocks."""
    conn = await asyncpg.connect(pg_url)
    try:
        await migrate(conn)
        records = await conn.fetch("SELECT * FROM schema_migrations ORDER BY version")
        schema = await pg_schema(conn)
        await migrate(conn)
        assert await conn.fetch("SELECT * FROM schema_migrations ORDER BY version") == records
        assert await pg_schema(conn) == schema
        assert [(r["version"], r["name"]) for r in records] == [
            (m.version, m.name) for m in bundled_migrations()
        ]
        assert await schema_version(conn) == NEWEST
        assert await _own_advisory_locks(conn) == 0
    finally:
        await conn.close()


async def test_newer_schema_is_refused_and_left_unchanged(pg_url: str) -> None:
    """A database above the newest known version raises SchemaTooNewError and is not changed."""
    conn = await asyncpg.connect(pg_url)
    try:
        await migrate(conn, bundled_migrations()[:1])
        await conn.execute("INSERT INTO schema_migrations VALUES ($1, 'future', 0)", NEWEST + 1)
        records = await conn.fetch("SELECT * FROM schema_migrations ORDER BY version")
        schema = await pg_schema(conn)
        with pytest.raises(SchemaTooNewError) as raised:
            await migrate(conn)
        assert str(raised.value) == too_new_message(NEWEST + 1, NEWEST)
        assert await conn.fetch("SELECT * FROM schema_migrations ORDER BY version") == records
        assert await pg_schema(conn) == schema
        assert await _own_advisory_locks(conn) == 0
    finally:
        await conn.close()


async def test_too_new_message_is_the_sqlite_one(tmp_path: Path) -> None:
    """Both engines refuse a newer database in the same words."""
    path = tmp_path / "quiz.sqlite3"
    await _sqlite(path)
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("INSERT INTO schema_migrations VALUES (?, 'future', 0)", (NEWEST + 1,))
    with pytest.raises(RuntimeError) as raised:
        await SqliteDatabase.open(path)
    assert str(raised.value) == too_new_message(NEWEST + 1, NEWEST)


async def test_concurrent_migrations_apply_each_version_once(pg_url: str) -> None:
    """Two replicas migrating one fresh database at once both succeed, one after the other."""
    conns = [await asyncpg.connect(pg_url) for _ in range(2)]
    try:
        await asyncio.gather(*(migrate(conn) for conn in conns))
        rows = await conns[0].fetch("SELECT version FROM schema_migrations ORDER BY version")
        assert [r["version"] for r in rows] == list(range(1, NEWEST + 1))
        assert [await _own_advisory_locks(conn) for conn in conns] == [0, 0]
    finally:
        for conn in conns:
            await conn.close()


async def test_failing_migration_keeps_previous_version_whole(pg_url: str) -> None:
    """A migration failing half-way is rolled back whole: version 1 stays, no half-made table."""
    migrations = [
        Migration(1, "one", "CREATE TABLE one (id BIGINT PRIMARY KEY);"),
        Migration(2, "broken", "CREATE TABLE half (id BIGINT);\nINSERT INTO nowhere VALUES (1);"),
        Migration(3, "three", "CREATE TABLE three (id BIGINT);"),
    ]
    conn = await asyncpg.connect(pg_url)
    try:
        with pytest.raises(asyncpg.UndefinedTableError):
            await migrate(conn, migrations)
        assert await schema_version(conn) == 1
        tables = await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        assert {r["tablename"] for r in tables} == {"schema_migrations", "one"}
        assert await _own_advisory_locks(conn) == 0
    finally:
        await conn.close()
