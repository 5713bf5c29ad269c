"""The quiz core wired over a real SQLite database in tmp_path, as the composition root does."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from random import Random
from zoneinfo import ZoneInfo

import pytest

from bot.core.catalog import Catalog
from bot.core.chats import ChatService
from bot.core.closing import Closer
from bot.core.delivery import Delivery
from bot.core.quiz import Asking, QuizConfig, QuizService
from bot.core.rounds import RoundService
from storage.sqlite import SqliteStore
from tests.core.test_selection import _deck
from tests.fakes.clock import FakeClock


@dataclass
class Core:
    store: SqliteStore
    clock: FakeClock
    chats: ChatService
    quiz: QuizService
    rounds: RoundService
    closer: Closer
    delivery: Delivery


@pytest.fixture
async def core(tmp_path: Path) -> AsyncIterator[Core]:
    store = await SqliteStore.open(tmp_path / "core.sqlite3")
    clock = FakeClock()
    catalog = Catalog({"deck": _deck(3)})
    chats = ChatService(store, store, catalog, clock, ZoneInfo("UTC"))
    config = QuizConfig(group_open=timedelta(seconds=300), round_open=timedelta(seconds=60))
    asking = Asking(store, chats, catalog, clock, config, Random(5))
    rounds = RoundService(store, store, store, asking, chats, catalog, clock)
    try:
        yield Core(
            store=store,
            clock=clock,
            chats=chats,
            quiz=QuizService(store, store, store, asking, chats, catalog, clock),
            rounds=rounds,
            closer=Closer(store, store, rounds, chats, clock),
            delivery=Delivery(store, store, store, store, rounds, chats, catalog, clock),
        )
    finally:
        await store.close()


async def post_all(core: Core, chat_id: int) -> None:
    """Deliver the chat's owed questions as a sender would, each getting a message id."""
    from bot.core.delivery import PostQuestion

    for item in await core.delivery.due(chat_id):
        if isinstance(item, PostQuestion):
            await core.delivery.delivered(item, 1000 + item.ask.id)
