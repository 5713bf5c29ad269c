"""Fixtures for storage tests: a fresh database per test, on each backend.

A test that takes `store` (or `database`, `raw`, `boards`) runs once per engine, unless it
selects one with `helpers.postgres_only`; one about SQLite itself (its file, PRAGMAs, files
older versions wrote, its planner) takes `db_path` alone.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage.sql.store import SqlStore
from tests.storage.helpers import Boards, Raw, open_store


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "quiz.sqlite3"


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def database(backend: str, db_path: Path, request: pytest.FixtureRequest) -> str:
    """The test's database: a SQLite file, or a fresh migrated PostgreSQL database's URL."""
    if backend == "sqlite":
        return str(db_path)
    return str(request.getfixturevalue("pg_migrated_url"))


@pytest.fixture
async def store(backend: str, database: str) -> AsyncIterator[SqlStore]:
    opened = await open_store(backend, database)
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
async def raw(store: SqlStore, backend: str, database: str) -> AsyncIterator[Raw]:
    """The database behind the test's store (opened, so migrated), read and written around
    the store: what is committed."""
    peeker = Raw(backend, database)
    try:
        yield peeker
    finally:
        await peeker.close()


@pytest.fixture
def boards(store: SqlStore, raw: Raw) -> Boards:
    return Boards(store, raw)
