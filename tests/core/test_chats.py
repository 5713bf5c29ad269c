"""The chat settings read on every answer (deck, time zone) and how long they are cached."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path
from random import Random
from typing import Any
from zoneinfo import ZoneInfo

from bot.core.catalog import Catalog
from bot.core.chats import ChatService
from bot.core.model import ChatKind, ChatRef, ChatSettings
from bot.core.services import CoreSettings, build_services
from storage.sqlite import SqliteStore
from tests.builders import simple_deck
from tests.fakes.clock import FakeClock

GROUP = ChatRef(-100777, ChatKind.SUPERGROUP, "Group")


async def test_another_replicas_deck_and_zone_change_is_seen_after_the_cache_time(
    tmp_path: Path,
) -> None:
    """With a cache time, a replica sees another's /deck and /timezone once it has passed."""
    store = await SqliteStore.open(tmp_path / "shared.sqlite3")
    clock = FakeClock()
    two = simple_deck(3, deck_id="two")
    catalog = Catalog({"one": simple_deck(3, deck_id="one"), "two": two})
    settings = CoreSettings(chat_settings_cached_for=timedelta(seconds=5))
    first = build_services(store, catalog, clock, settings, Random(1)).chats
    second = build_services(store, catalog, clock, settings, Random(2)).chats
    try:
        await first.joined(GROUP)
        assert (await second.deck_for(GROUP.id)).id == "one"
        assert await second.zone_of(GROUP.id) == ZoneInfo("UTC")
        await first.set_deck(GROUP, two)
        await first.set_timezone(GROUP, ZoneInfo("Asia/Tokyo"))
        clock.advance(seconds=4)
        assert (await second.deck_for(GROUP.id)).id == "one"
        clock.advance(seconds=2)
        assert (await second.deck_for(GROUP.id)).id == "two"
        assert await second.zone_of(GROUP.id) == ZoneInfo("Asia/Tokyo")
        assert (await first.deck_for(GROUP.id)).id == "two"
    finally:
        await store.close()


async def test_without_a_cache_time_the_service_keeps_what_it_read_until_it_changes_it(
    tmp_path: Path,
) -> None:
    """One process per database: the deck is read once and kept, its own changes kept too."""
    store = await SqliteStore.open(tmp_path / "alone.sqlite3")
    clock = FakeClock()
    two = simple_deck(3, deck_id="two")
    catalog = Catalog({"one": simple_deck(3, deck_id="one"), "two": two})
    chats = build_services(store, catalog, clock, CoreSettings(), Random(1)).chats
    try:
        await chats.joined(GROUP)
        assert (await chats.deck_for(GROUP.id)).id == "one"
        await store.set_deck(GROUP.id, "two")  # behind the service's back
        clock.advance(days=30)
        assert (await chats.deck_for(GROUP.id)).id == "one"
        await chats.set_deck(GROUP, two)
        assert (await chats.deck_for(GROUP.id)).id == "two"
    finally:
        await store.close()


class HeldReads:
    """The store's chat port, with each read held until the test lets it finish: a read that
    began before a change lands after it."""

    def __init__(self, store: SqliteStore) -> None:
        self._store = store
        self.release = asyncio.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def chat(self, chat_id: int) -> ChatSettings | None:
        found = await self._store.chat(chat_id)
        await self.release.wait()
        return found


async def test_a_read_overtaken_by_a_change_does_not_bring_the_old_deck_back(
    tmp_path: Path,
) -> None:
    """A deck read that began before /deck and ends after it: the new deck stays."""
    store = await SqliteStore.open(tmp_path / "race.sqlite3")
    clock = FakeClock()
    two = simple_deck(3, deck_id="two")
    catalog = Catalog({"one": simple_deck(3, deck_id="one"), "two": two})
    held = HeldReads(store)
    chats = ChatService(
        chats=held, boards=store, catalog=catalog, clock=clock, default_zone=ZoneInfo("UTC")
    )
    try:
        await store.upsert_chat(GROUP, clock.now())
        stale_deck = asyncio.ensure_future(chats.deck_for(GROUP.id))
        stale_zone = asyncio.ensure_future(chats.zone_of(GROUP.id))
        await asyncio.sleep(0.05)  # both reads have the old row and wait
        await chats.set_deck(GROUP, two)
        await chats.set_timezone(GROUP, ZoneInfo("Asia/Tokyo"))
        held.release.set()
        await stale_deck
        await stale_zone
        assert (await chats.deck_for(GROUP.id)).id == "two"
        assert await chats.zone_of(GROUP.id) == ZoneInfo("Asia/Tokyo")
    finally:
        await store.close()
