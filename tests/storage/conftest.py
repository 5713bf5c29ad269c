"""Fixtures for storage tests: a fresh database file per test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage.db import Database
from storage.leaderboards import LeaderboardRepository
from storage.repository import Repository
from tests.storage.boards import Boards


@pytest.fixture
async def boards(tmp_path: Path) -> AsyncIterator[Boards]:
    db = await Database.open(tmp_path / "quiz.sqlite3")
    try:
        yield Boards(db, Repository(db), LeaderboardRepository(db))
    finally:
        await db.close()
