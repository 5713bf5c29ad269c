"""A copy that cannot be made or checked: a clear refusal or failure, and nothing changed on
either side."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from storage.copy import CopyFailedError, CopyRefusedError
from storage.copy import run as copying
from storage.copy.run import copy_sqlite_to_postgres
from storage.migrations import SchemaTooNewError
from storage.sqlite.db import SqliteDatabase, bundled_migrations
from tests.storage.copy.filled import (
    GROUP,
    P0,
    digest,
)
from tests.storage.helpers import Raw


async def test_a_copy_that_differs_names_the_tables_and_boards(
    source: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A check that finds a row missing or a score changed reports them, by table and board."""
    copy_table = copying._copy_table

    async def tampering(
        conn: asyncpg.Connection, snapshot: sqlite3.Connection, table: Any, batch_rows: int
    ) -> None:
        await copy_table(conn, snapshot, table, batch_rows)
        if table.name == "cards":
            await conn.execute("DELETE FROM cards WHERE ctid = (SELECT min(ctid) FROM cards)")
        if table.name == "period_scores":
            await conn.execute(
                "UPDATE period_scores SET correct = correct + 100 "
                "WHERE chat_id = $1 AND period = 'all' AND user_id = $2",
                GROUP.id,
                P0.id,
            )

    monkeypatch.setattr(copying, "_copy_table", tampering)
    report = await copy_sqlite_to_postgres(source, pg_url)
    assert not report.ok
    [cards, board] = report.differences
    assert cards.startswith("cards: ")
    assert cards.endswith(" in PostgreSQL")
    assert board.startswith(f"chat {GROUP.id} all-time board, place 1: ")


async def test_a_row_pointing_at_nothing_fails_the_copy_and_leaves_the_target_as_it_was(
    source: Path, pg_url: str
) -> None:
    """The foreign keys are checked on the copied rows: an answer to no ask (possible in a
    file written with its keys off) fails the copy, and the target is left empty, no schema."""
    with closing(sqlite3.connect(source)) as conn, conn:
        conn.execute(
            "INSERT INTO answers (ask_id, user_id, chat_id, position, correct, answered_at) "
            "SELECT 999999, user_id, chat_id, 0, 1, 0 FROM answers LIMIT 1"
        )
    with pytest.raises(CopyFailedError, match=r"left as it was: .*answers_ask_id_fkey"):
        await copy_sqlite_to_postgres(source, pg_url)
    raw = Raw("postgres", pg_url)
    try:
        assert await raw.count("pg_tables", "schemaname = 'public'") == 0
    finally:
        await raw.close()


async def test_an_older_file_is_migrated_first_and_a_migrated_empty_target_is_fine(
    tmp_path: Path, pg_migrated_url: str
) -> None:
    """A file at schema version 5 is brought to the current version, then copied into a
    database that holds the empty schema already."""
    path = tmp_path / "old.sqlite3"
    db = await SqliteDatabase.open(path, bundled_migrations()[:5])
    await db.close()
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("INSERT INTO chats (id, kind, created_at) VALUES (-5, 'group', 0)")
        conn.execute("INSERT INTO users (id, first_name, updated_at) VALUES (1, 'Alice', 0)")
        conn.execute(
            "INSERT INTO asks (id, chat_id, deck_id, question_id, pass_no, option_order, "
            "asked_at) VALUES (40, -5, 'deck', 'q1', 1, '0,1,2,3', 1000)"
        )
        conn.execute(
            "INSERT INTO answers (ask_id, user_id, chat_id, position, correct, answered_at) "
            "VALUES (40, 1, -5, 0, 1, 2000)"
        )
    report = await copy_sqlite_to_postgres(path, pg_migrated_url)
    assert report.ok, report.differences
    assert (report.migrated_from, report.schema_version) == (5, bundled_migrations()[-1].version)
    rows = {t.name: t.rows for t in report.tables}
    assert (rows["asks"], rows["answers"], rows["period_scores"]) == (1, 1, 3)
    with closing(sqlite3.connect(path)) as conn:
        assert conn.execute("SELECT max(version) FROM schema_migrations").fetchone() == (
            report.schema_version,
        )


async def test_a_target_with_any_row_is_refused_and_nothing_changes(
    source: Path, pg_migrated_url: str
) -> None:
    """One chat in the target is enough to refuse; the target and the file stay as they were."""
    raw = Raw("postgres", pg_migrated_url)
    try:
        await raw.execute("INSERT INTO chats (id, kind, created_at) VALUES (1, 'private', 0)")
        before = digest(source)
        with pytest.raises(CopyRefusedError, match=r"not empty \(rows in chats\)"):
            await copy_sqlite_to_postgres(source, pg_migrated_url)
        assert digest(source) == before
        assert await raw.peek("SELECT id FROM chats") == [(1,)]
        assert await raw.count("answers") == 0
    finally:
        await raw.close()


async def test_a_file_of_a_newer_quizbot_is_refused_and_nothing_changes(
    source: Path, pg_url: str
) -> None:
    """A file at a schema version this quizbot does not know is refused before the target is
    touched: it keeps no table."""
    with closing(sqlite3.connect(source)) as conn, conn:
        conn.execute("INSERT INTO schema_migrations VALUES (99, 'future', 0)")
    before = digest(source)
    with pytest.raises(SchemaTooNewError, match="schema version 99"):
        await copy_sqlite_to_postgres(source, pg_url)
    assert digest(source) == before
    raw = Raw("postgres", pg_url)
    try:
        assert await raw.count("pg_tables", "schemaname = 'public'") == 0
    finally:
        await raw.close()


@pytest.mark.parametrize(
    ("kind", "error"),
    [
        ("mysql url", "must be a PostgreSQL URL"),
        ("missing file", "no such file"),
        ("text file", "not a quizbot database"),
        ("other sqlite file", "not a quizbot database"),
    ],
)
async def test_what_is_not_a_quizbot_file_or_a_postgres_url_is_refused(
    kind: str, error: str, source: Path, tmp_path: Path, pg_url: str
) -> None:
    """A wrong URL or a file that is not a quizbot database is refused; nothing is written."""
    url = "mysql://localhost/quiz" if kind == "mysql url" else pg_url
    path = {"missing file": tmp_path / "nope.sqlite3", "text file": tmp_path / "a.txt"}.get(
        kind, source
    )
    if kind == "text file":
        path.write_text("not a database, but long enough to have a header of sorts" * 4)
    if kind == "other sqlite file":
        path = tmp_path / "other.sqlite3"
        with closing(sqlite3.connect(path)) as conn:
            conn.execute("CREATE TABLE notes (body TEXT)")
    before = path.read_bytes() if path.exists() else None
    with pytest.raises(CopyRefusedError, match=error):
        await copy_sqlite_to_postgres(path, url)
    assert (path.read_bytes() if path.exists() else None) == before
    raw = Raw("postgres", pg_url)
    try:
        assert await raw.count("pg_tables", "schemaname = 'public'") == 0
    finally:
        await raw.close()
