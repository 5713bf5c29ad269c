"""A group becoming a supergroup: every chat-keyed row moves, whichever update came first."""

from __future__ import annotations

from zoneinfo import ZoneInfo

import pytest

from bot.core.model import (
    ChatKind,
    ChatRef,
    RoundEnd,
)
from storage.sql.moves import CHAT_TABLES
from storage.sql.store import SqlStore
from tests.storage.chat_history import D1, D2, D3, START, history
from tests.storage.helpers import (
    UTC_ZONE,
    Boards,
    Raw,
    utc,
    zone_bounds,
)

OLD = ChatRef(-123, ChatKind.GROUP, "Study")
NEW = ChatRef(-100123, ChatKind.SUPERGROUP, "Study (super)")
BERLIN = ZoneInfo("Europe/Berlin")
BOUNDS = zone_bounds(BERLIN)  # the chat's zone after the move: the old group's
NOW = utc(2026, 11, 25, 8)  # when the move happens
MOVED = ("asks", "answers", "rounds", "effects")


async def old_group(store: SqlStore) -> None:
    await store.upsert_chat(OLD, START)
    await store.set_timezone(OLD.id, "Europe/Berlin")
    await store.set_deck(OLD.id, "capitals")
    await history(store, OLD, BERLIN, seed=9, days=(D1, D2))


async def rows_of(raw: Raw, chat_id: int) -> dict[str, int]:
    """How many rows each chat-keyed table has for the chat."""
    return {
        table: await raw.count(table, f"{col} = ?", (chat_id,))
        for table, col in (await raw.chat_tables()).items()
    }


async def dump(raw: Raw) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every chat-keyed table and of chats (in an order of their own, not the
    engine's)."""
    return {
        table: sorted(await raw.peek(f"SELECT * FROM {table}"), key=repr)
        for table in (*await raw.chat_tables(), "chats")
    }


async def check_moved(store: SqlStore, raw: Raw) -> None:
    """Nothing is left under the old id, foreign keys hold, the boards equal a recount."""
    leftovers = {table: n for table, n in (await rows_of(raw, OLD.id)).items() if n}
    assert leftovers == {}
    assert await store.chat(OLD.id) is None
    assert await raw.foreign_key_violations() == []
    boards = Boards(store, raw)
    kept = await boards.snapshot(NEW.id)
    assert kept
    await store.rebuild_chat(NEW.id, BOUNDS)
    assert await boards.snapshot(NEW.id) == kept


async def test_the_move_knows_every_table_that_refers_to_chats(store: SqlStore, raw: Raw) -> None:
    """CHAT_TABLES (what move_chat handles) is exactly the set of tables keyed by chat."""
    assert set(await raw.chat_tables()) == set(CHAT_TABLES)


async def test_migration_first_rekeys_the_chat(store: SqlStore, raw: Raw) -> None:
    """The new id is unknown: the chat row takes it and every row goes along, boards as kept."""
    await old_group(store)
    before, boards = await rows_of(raw, OLD.id), await Boards(store, raw).snapshot(OLD.id)
    pending = await store.pending_effects(OLD.id, 10)
    running = await store.running_round(OLD.id)
    assert running is not None

    assert await store.move_chat(OLD.id, NEW.id, BOUNDS, NOW)

    assert await rows_of(raw, NEW.id) == before
    assert await Boards(store, raw).snapshot(NEW.id) == boards
    settings = await store.chat(NEW.id)
    assert settings is not None
    assert (settings.kind, settings.timezone, settings.deck_id) == (
        ChatKind.SUPERGROUP,
        "Europe/Berlin",
        "capitals",
    )
    assert [e.id for e in await store.pending_effects(NEW.id, 10)] == [e.id for e in pending]
    moved = await store.running_round(NEW.id)
    assert moved is not None
    assert (moved.id, moved.chat_id) == (running.id, NEW.id)
    schedule = await store.schedule(NEW.id)
    assert schedule is not None
    assert schedule.local_time == "09:00"
    await check_moved(store, raw)
    # The supergroup's own updates arriving afterwards change nothing that moved.
    await store.upsert_chat(NEW, START)
    assert await store.chat(NEW.id) == settings


async def test_new_chat_joined_first_with_nothing_else(store: SqlStore, raw: Raw) -> None:
    """The bot's join to the supergroup came first: all is merged in, with the old settings."""
    await old_group(store)
    await store.upsert_chat(NEW, START)
    before = await rows_of(raw, OLD.id)
    pending = [e.id for e in await store.pending_effects(OLD.id, 10)]

    assert await store.move_chat(OLD.id, NEW.id, BOUNDS, NOW)

    after = await rows_of(raw, NEW.id)
    assert {t: after[t] for t in (*MOVED, "daily_schedules", "daily_pushes")} == {
        t: before[t] for t in (*MOVED, "daily_schedules", "daily_pushes")
    }
    settings = await store.chat(NEW.id)
    assert settings is not None
    assert (settings.kind, settings.timezone, settings.deck_id, settings.active) == (
        ChatKind.SUPERGROUP,
        "Europe/Berlin",
        "capitals",
        True,
    )
    assert [e.id for e in await store.pending_effects(NEW.id, 10)] == pending
    assert await store.running_round(NEW.id) is not None
    await check_moved(store, raw)


async def test_new_chat_with_its_own_history_is_merged(store: SqlStore, raw: Raw) -> None:
    """Both chats have history: the new one's settings, schedule, round and days win, all adds."""
    await old_group(store)
    await store.upsert_chat(NEW, START)
    await store.set_deck(NEW.id, "science")
    await history(store, NEW, UTC_ZONE, seed=18, days=(D1, D3))
    old, new = await rows_of(raw, OLD.id), await rows_of(raw, NEW.id)
    pending = sorted(
        [e.id for e in await store.pending_effects(OLD.id, 10)]
        + [e.id for e in await store.pending_effects(NEW.id, 10)]
    )
    old_round, new_round = await store.running_round(OLD.id), await store.running_round(NEW.id)
    assert old_round is not None
    assert new_round is not None
    old_d1, new_d1 = await store.push_for(OLD.id, D1), await store.push_for(NEW.id, D1)
    old_d2 = await store.push_for(OLD.id, D2)
    assert old_d1 is not None
    assert new_d1 is not None
    assert old_d2 is not None

    assert await store.move_chat(OLD.id, NEW.id, BOUNDS, NOW)

    after = await rows_of(raw, NEW.id)
    assert {t: after[t] for t in MOVED} == {t: old[t] + new[t] for t in MOVED}
    assert (after["daily_schedules"], after["daily_pushes"]) == (1, 3)
    settings = await store.chat(NEW.id)
    assert settings is not None
    assert (settings.timezone, settings.deck_id) == ("Europe/Berlin", "science")
    assert await raw.peek("SELECT title FROM chats WHERE id = ?", (NEW.id,)) == [(NEW.title,)]
    assert await store.running_round(NEW.id) == new_round
    stopped = await store.get_round(old_round.id)
    assert stopped is not None
    assert (stopped.chat_id, stopped.end_reason, stopped.is_running) == (
        NEW.id,
        RoundEnd.STOPPED,
        False,
    )
    schedule = await store.schedule(NEW.id)
    assert schedule is not None
    assert schedule.local_time == "18:00"
    assert await store.push_for(NEW.id, D1) == new_d1
    moved_d2 = await store.push_for(NEW.id, D2)
    assert moved_d2 is not None
    assert (moved_d2.ask_id, moved_d2.chat_id) == (old_d2.ask_id, NEW.id)
    assert old_d1.ask_id is not None
    dropped_ask = await store.get_ask(old_d1.ask_id)  # its ledger row gave way, not the ask
    assert dropped_ask is not None
    assert dropped_ask.chat_id == NEW.id
    assert [e.id for e in await store.pending_effects(NEW.id, 10)] == pending
    assert await store.due_effect_chats(utc(2030, 1, 1), 10) == [NEW.id]
    await check_moved(store, raw)


async def test_unknown_old_chat_moves_nothing(store: SqlStore, raw: Raw) -> None:
    """A move from a chat that is not known (moved already, or never seen) changes nothing."""
    await store.upsert_chat(NEW, START)
    await history(store, NEW, UTC_ZONE, seed=18, days=(D1,))
    before = await dump(raw)
    assert not await store.move_chat(OLD.id, NEW.id, BOUNDS, NOW)
    assert not await store.move_chat(NEW.id, NEW.id, BOUNDS, NOW)
    assert await dump(raw) == before
    assert await rows_of(raw, OLD.id) == dict.fromkeys(CHAT_TABLES, 0)
    assert await raw.foreign_key_violations() == []


@pytest.mark.parametrize("new_known", [False, True], ids=["new-unknown", "new-with-history"])
async def test_moving_twice_is_a_no_op_the_second_time(
    store: SqlStore, raw: Raw, new_known: bool
) -> None:
    """Telegram reports a migration in both chats: the second call is False, changes nothing."""
    await old_group(store)
    if new_known:
        await store.upsert_chat(NEW, START)
        await history(store, NEW, UTC_ZONE, seed=18, days=(D1, D3))
    assert await store.move_chat(OLD.id, NEW.id, BOUNDS, NOW)
    once = await dump(raw)
    assert not await store.move_chat(OLD.id, NEW.id, BOUNDS, NOW)
    assert await dump(raw) == once
    await check_moved(store, raw)
