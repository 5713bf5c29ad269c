"""The chat settings read on every answer (deck, time zone) and how long they are cached."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from random import Random
from zoneinfo import ZoneInfo

from bot.core.catalog import Catalog
from bot.core.model import ChatKind, ChatRef
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
