"""The quiz core wired over a real SQLite database in tmp_path, by the one wiring function."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from random import Random

import pytest

from bot.core.catalog import Catalog
from bot.core.services import Services, build_services
from storage.sqlite import SqliteStore
from tests.builders import simple_deck
from tests.fakes.clock import FakeClock


@dataclass
class Core:
    store: SqliteStore
    clock: FakeClock
    services: Services

    @property
    def outbox(self):  # the names the core tests use most
        return self.services.outbox

    @property
    def quiz(self):
        return self.services.quiz

    @property
    def rounds(self):
        return self.services.rounds

    @property
    def closer(self):
        return self.services.closer

    @property
    def chats(self):
        return self.services.chats


@pytest.fixture
async def core(tmp_path: Path) -> AsyncIterator[Core]:
    store = await SqliteStore.open(tmp_path / "core.sqlite3")
    clock = FakeClock()
    services = build_services(store, Catalog({"deck": simple_deck(3)}), clock, rng=Random(5))
    try:
        yield Core(store=store, clock=clock, services=services)
    finally:
        await store.close()


async def post_all(core: Core, chat_id: int) -> None:
    """Deliver the chat's owed questions as a sender would, each getting a message id."""
    from bot.core.quiz import PostQuestion

    for item in await core.outbox.due(chat_id):
        if isinstance(item, PostQuestion):
            await core.outbox.delivered(item, 1000 + item.ask.id)
