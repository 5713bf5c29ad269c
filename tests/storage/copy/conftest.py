"""The filled SQLite database, written once per module, and a copy of it for each test."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from tests.storage.copy.filled import build


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The filled SQLite database, written once."""
    path = tmp_path_factory.mktemp("copy") / "quiz.sqlite3"
    asyncio.run(build(path))
    return path


@pytest.fixture
def source(built: Path, tmp_path: Path) -> Path:
    """A copy of the filled database that the test may change."""
    path = tmp_path / "quiz.sqlite3"
    shutil.copyfile(built, path)
    return path
