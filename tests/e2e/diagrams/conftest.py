"""The bot started on a deck of questions with images, written into the test's folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Settings
from bot.playground.botapi import BotApiServer
from tests.e2e.helpers.diagrams import StartOn, starter
from tests.fakes.clock import FakeClock


@pytest.fixture
def start_on(settings: Settings, clock: FakeClock, fake: BotApiServer, tmp_path: Path) -> StartOn:
    """`async with start_on([question(...), ...]) as bot:` the bot on a deck of those questions."""
    return starter(settings, clock, fake, tmp_path / "decks")
