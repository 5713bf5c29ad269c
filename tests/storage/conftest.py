"""Fixtures for storage tests: a fresh database file per test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage.sqlite import SqliteStore
from tests.storage.helpers import Boards


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "quiz.sqlite3"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[SqliteStore]:
    opened = await SqliteStore.open(db_path)
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def boards(store: SqliteStore, db_path: Path) -> Boards:
    return Boards(store, db_path)
