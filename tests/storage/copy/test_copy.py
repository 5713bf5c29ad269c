"""Copying a SQLite database into PostgreSQL (storage/copy/): every row and id kept, the boards
ranked alike, the schema as the migrations make it, the PostgreSQL store working on after it."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.core.model import (
    PeriodKind,
)
from bot.core.rules.periods import period_keys, period_start
from storage.copy import run as copying
from storage.copy.run import copy_sqlite_to_postgres
from storage.postgres.store import PostgresStore
from storage.sqlite import SqliteStore
from storage.sqlite.lock import ProcessLock
from tests.storage.copy.filled import (
    BERLIN,
    COPIED,
    GROUP,
    P0,
    boards_of,
    contents,
)
from tests.storage.helpers import Raw, ask_in, draft, utc


async def test_the_copy_keeps_every_row_and_id_and_ranks_every_board_alike(
    source: Path, pg_url: str
) -> None:
    """Every table is copied row for row (ids included), in several batches; the report counts
    them and has checked the boards; both stores rank every board and standing the same."""
    report = await copy_sqlite_to_postgres(source, pg_url, batch_rows=7)
    assert report.ok, report.differences
    assert report.migrated_from is None
    assert not report.source_in_use
    assert [t.name for t in report.tables] == list(COPIED)
    assert report.not_copied == (
        "schema_migrations",
        "replicas",
        "chat_claims",
        "command_allowance",
    )
    mine, theirs = await contents(source, pg_url)
    assert theirs == mine
    assert {t.name: t.rows for t in report.tables} == {t: len(rows) for t, rows in mine.items()}
    assert all(mine[table] for table in COPIED), "the fixture fills every table"
    assert {source for *_, source in mine["learning_log"]} == {"quiz", "review", "exam"}
    with closing(sqlite3.connect(source)) as db:
        keys = db.execute(
            "SELECT DISTINCT chat_id, period, period_start FROM period_scores ORDER BY 1, 2, 3"
        ).fetchall()
    assert report.boards == len(keys)
    assert {period for _, period, _ in keys} == {"week", "month", "all"}
    sqlite_store = await SqliteStore.open(source)
    pg_store = await PostgresStore.open(pg_url, pool_size=2)
    try:
        assert await boards_of(pg_store, keys) == await boards_of(sqlite_store, keys)
    finally:
        await sqlite_store.close()
        await pg_store.close()


async def exact_schema(url: str) -> dict[str, list[tuple[object, ...]]]:
    """Columns, constraints, indexes and triggers (with whether they are enabled), as
    PostgreSQL itself prints their definitions."""
    queries = {
        "columns": "SELECT table_name, ordinal_position, column_name, data_type, is_nullable, "
        "column_default, is_identity FROM information_schema.columns "
        "WHERE table_schema = 'public' ORDER BY 1, 2",
        "constraints": "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) "
        "FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2",
        "indexes": "SELECT indexrelid::regclass::text, pg_get_indexdef(indexrelid) FROM pg_index "
        "WHERE indrelid::regclass::text NOT LIKE 'pg_%' ORDER BY 1",
        "triggers": "SELECT tgrelid::regclass::text, tgname, tgenabled::text, "
        "pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1, 2",
    }
    conn = await asyncpg.connect(url)
    try:
        return {name: [tuple(r) for r in await conn.fetch(q)] for name, q in queries.items()}
    finally:
        await conn.close()


async def test_the_copy_leaves_the_schema_exactly_as_the_migrations_make_it(
    source: Path, pg_url: str, pg_migrated_url: str
) -> None:
    """The keys and indexes dropped for the copy come back as they were, and the triggers
    are enabled again."""
    assert (await copy_sqlite_to_postgres(source, pg_url)).ok
    copied = await exact_schema(pg_url)
    assert copied == await exact_schema(pg_migrated_url)
    assert {enabled for _, _, enabled, _ in copied["triggers"]} == {"O"}
    assert len(copied["triggers"]) == 2


async def test_the_postgres_store_works_on_after_the_copy(source: Path, pg_url: str) -> None:
    """A new ask gets the next id after the copied ones; a new answer is scored on the boards
    and logged by the re-enabled triggers exactly once."""
    assert (await copy_sqlite_to_postgres(source, pg_url)).ok
    raw = Raw("postgres", pg_url)
    store = await PostgresStore.open(pg_url, pool_size=2)
    try:
        [(last_ask, last_answer)] = await raw.peek(
            "SELECT (SELECT max(id) FROM asks), (SELECT max(id) FROM answers)"
        )
        scores = (
            "SELECT period, correct, answered FROM period_scores WHERE chat_id = ? AND user_id = ?"
        )
        before = {p: (c, n) for p, c, n in await raw.peek(scores, (GROUP.id, P0.id)) if p == "all"}
        logged = await raw.count("learning_log")
        at = utc(2027, 3, 1, 12)  # a week and a month nobody has answered in yet
        ask = await ask_in(store, GROUP, draft(GROUP.id, at, "after"))
        assert ask.id == last_ask + 1
        answer = await store.record_answer(
            ask, P0, ask.right_position, True, at, periods=period_keys(at, BERLIN)
        )
        assert answer is not None
        assert await raw.peek("SELECT max(id) FROM answers") == [(last_answer + 1,)]
        after = {(p, c, n) for p, c, n in await raw.peek(scores, (GROUP.id, P0.id))}
        correct, answered = before["all"]
        assert ("all", correct + 1, answered + 1) in after
        assert {("week", 1, 1), ("month", 1, 1)} <= after
        assert await raw.count("learning_log") == logged + 1
        week = await store.top(
            GROUP.id, PeriodKind.WEEK, period_start(PeriodKind.WEEK, at, BERLIN), 10
        )
        assert [row.player.id for row in week] == [P0.id]
    finally:
        await store.close()
        await raw.close()


async def test_a_file_in_use_is_copied_as_of_its_snapshot(
    source: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot writing to the file during the copy (here: an answer stored between two tables)
    neither tears the copy nor fails its check: it is the file as the copy began."""
    copy_table = copying._copy_table
    written: list[int] = []

    async def writing_meanwhile(
        conn: asyncpg.Connection, snapshot: sqlite3.Connection, table: Any, batch_rows: int
    ) -> None:
        await copy_table(conn, snapshot, table, batch_rows)
        if table.name == "asks":
            with closing(sqlite3.connect(source)) as db, db:
                db.execute("INSERT INTO users (id, first_name, updated_at) VALUES (77, 'Late', 0)")
                db.execute(
                    "INSERT INTO answers (ask_id, user_id, chat_id, position, correct, "
                    "answered_at, week_start, month_start) "
                    "SELECT id, 77, chat_id, 1, 1, asked_at, 0, 0 FROM asks WHERE chat_id = ? "
                    "LIMIT 1",
                    (GROUP.id,),
                )
                written.append(db.execute("SELECT count(*) FROM answers").fetchone()[0])

    monkeypatch.setattr(copying, "_copy_table", writing_meanwhile)
    lock = ProcessLock(source)
    lock.acquire()
    try:
        report = await copy_sqlite_to_postgres(source, pg_url)
    finally:
        lock.release()
    assert report.ok, report.differences
    assert report.source_in_use
    [copied] = [t.rows for t in report.tables if t.name == "answers"]
    assert written == [copied + 1]
    raw = Raw("postgres", pg_url)
    try:
        assert await raw.count("answers") == copied
        assert await raw.count("users", "id = 77") == 0
    finally:
        await raw.close()
