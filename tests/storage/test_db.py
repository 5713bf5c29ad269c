"""The database file: PRAGMAs, migrations in transactions, refusing a newer schema."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from storage.db import Database, Migration, SchemaTooNewError, bundled_migrations


async def test_open_creates_file_and_directory_with_wal_and_foreign_keys(tmp_path: Path) -> None:
    """Opening a path in a missing folder creates it, with WAL, NORMAL sync, FKs and a timeout."""
    path = tmp_path / "nested" / "quiz.sqlite3"
    db = await Database.open(path)
    try:
        assert path.exists()
        pragmas = {}
        for name in ("journal_mode", "synchronous", "foreign_keys", "busy_timeout"):
            row = await db.fetch_one(f"PRAGMA {name}")
            assert row is not None
            pragmas[name] = row[0]
        assert pragmas == {
            "journal_mode": "wal",
            "synchronous": 1,
            "foreign_keys": 1,
            "busy_timeout": 5000,
        }
    finally:
        await db.close()


async def test_migrations_are_recorded_and_applied_once(tmp_path: Path) -> None:
    """Every bundled migration is applied and recorded once, and reopening applies nothing."""
    path = tmp_path / "quiz.sqlite3"
    db = await Database.open(path)
    await db.close()
    db = await Database.open(path)
    try:
        rows = await db.fetch_all("SELECT version, name FROM schema_migrations ORDER BY version")
        assert [(r[0], r[1]) for r in rows] == [(m.version, m.name) for m in bundled_migrations()]
        tables = {r[0] for r in await db.fetch_all("SELECT name FROM sqlite_master")}
        assert {"chats", "users", "asks", "answers"} <= tables
    finally:
        await db.close()


async def test_failing_migration_leaves_no_trace(tmp_path: Path) -> None:
    """A migration that fails half-way is rolled back whole, its record included."""
    path = tmp_path / "quiz.sqlite3"
    broken = Migration(
        1, "broken", "CREATE TABLE half (id INTEGER);\nINSERT INTO nowhere VALUES (1);"
    )
    with pytest.raises(sqlite3.OperationalError):
        await Database.open(path, [broken])
    with sqlite3.connect(path) as conn:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        assert "half" not in names
        assert conn.execute("SELECT count(*) FROM schema_migrations").fetchone() == (0,)


async def test_database_from_newer_version_is_refused_unchanged(tmp_path: Path) -> None:
    """A schema version above the code's is refused with a clear message and not modified."""
    path = tmp_path / "quiz.sqlite3"
    db = await Database.open(path)
    await db.close()
    newest = bundled_migrations()[-1].version
    with sqlite3.connect(path) as conn:
        conn.execute(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'future', 0)",
            (newest + 1,),
        )
    before = path.read_bytes()
    with pytest.raises(SchemaTooNewError, match=f"schema version {newest + 1}.*newer release"):
        await Database.open(path)
    assert path.read_bytes() == before


def test_bundled_migrations_are_numbered_without_gaps() -> None:
    """Migration files are numbered 1..n, so their order is never in doubt."""
    versions = [m.version for m in bundled_migrations()]
    assert versions == list(range(1, len(versions) + 1))
