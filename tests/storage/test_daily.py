"""Daily schedules and the delivery ledger against a real database, on each engine."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta

import pytest

from bot.core.model import AskOrigin, ChatKind, ChatRef, Push, PushStatus, SlotDecision
from storage.sql.store import SqlStore
from tests.storage.helpers import FOREIGN_KEY, Raw, draft, push_sent, record_slots, utc

NOW = utc(2026, 12, 2, 7, 0)
SLOT = utc(2026, 12, 2, 8, 0)
DAY = date(2026, 12, 2)
CHAT = ChatRef(-100123, ChatKind.SUPERGROUP, "Study group")
OTHER = ChatRef(-100456, ChatKind.SUPERGROUP)


def decision(chat: ChatRef, status: PushStatus = PushStatus.PENDING) -> SlotDecision:
    return SlotDecision(
        chat_id=chat.id,
        local_day=DAY,
        slot_at=SLOT,
        status=status,
        next_slot_at=SLOT + timedelta(days=1),
        next_day=DAY + timedelta(days=1),
    )


async def scheduled(store: SqlStore) -> None:
    for chat in (CHAT, OTHER):
        await store.upsert_chat(chat, NOW)
        await store.set_schedule(chat.id, "09:00", SLOT, DAY, NOW)
    await store.set_timezone(CHAT.id, "Europe/Berlin")


async def test_schedule_is_set_disabled_and_due_with_the_chats_zone(store: SqlStore) -> None:
    """Enabled schedules whose slot has come are due, with their chat's time zone key."""
    await scheduled(store)
    schedule = await store.schedule(CHAT.id)
    assert schedule is not None
    assert (schedule.local_time, schedule.enabled, schedule.next_slot_at) == ("09:00", True, SLOT)
    assert schedule.next_day == DAY
    assert await store.due_schedules(SLOT - timedelta(seconds=1), 10) == []
    due = await store.due_schedules(SLOT, 10)
    assert [(s.chat_id, zone) for s, zone in due] == [(OTHER.id, None), (CHAT.id, "Europe/Berlin")]
    assert len(await store.due_schedules(SLOT, 1)) == 1
    assert await store.disable_schedule(OTHER.id, NOW)
    assert not await store.disable_schedule(OTHER.id, NOW)
    assert [s.chat_id for s, _ in await store.due_schedules(SLOT, 10)] == [CHAT.id]
    await store.set_schedule(OTHER.id, "10:30", SLOT, DAY, NOW)
    again = await store.schedule(OTHER.id)
    assert again is not None
    assert (again.local_time, again.enabled) == ("10:30", True)
    assert await store.schedule(999) is None


async def test_record_slots_writes_the_ledger_and_advances_the_schedules(
    store: SqlStore, raw: Raw
) -> None:
    """Ledger rows are written once (a replay keeps the first) and the next slots advance."""
    await scheduled(store)
    await record_slots(store, [decision(CHAT), decision(OTHER, PushStatus.SKIPPED)], NOW)
    await record_slots(store, [decision(CHAT, PushStatus.SKIPPED)], NOW)
    await record_slots(store, [], NOW)
    pending = await store.pending_pushes(10)
    assert pending == [Push(CHAT.id, DAY, SLOT, PushStatus.PENDING, None, None, 0)]
    skipped = await store.push_for(OTHER.id, DAY)
    assert skipped is not None
    assert skipped.status is PushStatus.SKIPPED
    done = await raw.peek("SELECT chat_id, done_at IS NULL FROM daily_pushes ORDER BY chat_id")
    assert done == [(OTHER.id, 0), (CHAT.id, 1)]
    schedule = await store.schedule(CHAT.id)
    assert schedule is not None
    assert (schedule.next_slot_at, schedule.next_day) == (
        SLOT + timedelta(days=1),
        date(2026, 12, 3),
    )
    assert await store.push_for(CHAT.id, DAY + timedelta(days=1)) is None


async def test_attach_push_ask_creates_the_daily_ask_and_notes_it(store: SqlStore) -> None:
    """The push's ask is created with its origin and the ledger row points at it."""
    await scheduled(store)
    await record_slots(store, [decision(CHAT)], NOW)
    [push] = await store.pending_pushes(10)
    ask = await store.attach_push_ask(push, draft(CHAT.id, SLOT, origin=AskOrigin.DAILY))
    assert ask.origin is AskOrigin.DAILY
    assert await store.get_ask(ask.id) == ask
    noted = await store.push_for(CHAT.id, DAY)
    assert noted == replace(push, ask_id=ask.id)


async def test_attach_push_ask_writes_nothing_when_the_ask_is_refused(
    store: SqlStore, raw: Raw
) -> None:
    """An ask the database refuses (unknown round) leaves the ledger row without one."""
    await scheduled(store)
    await record_slots(store, [decision(CHAT)], NOW)
    [push] = await store.pending_pushes(10)
    with pytest.raises(raw.integrity_error, match=FOREIGN_KEY):
        await store.attach_push_ask(push, draft(CHAT.id, SLOT, round_id=404))
    assert await raw.count("asks") == 0
    assert await store.push_for(CHAT.id, DAY) == push


async def test_mark_push_sent_gives_the_ask_its_message_and_closes_the_row(
    store: SqlStore,
) -> None:
    """A sent push: the ask has the message id, the row is 'sent' with one more attempt."""
    await scheduled(store)
    await record_slots(store, [decision(CHAT)], NOW)
    [push] = await store.pending_pushes(10)
    ask = await store.attach_push_ask(push, draft(CHAT.id, SLOT, origin=AskOrigin.DAILY))
    await push_sent(store, push, ask.id, 777, SLOT)
    sent = await store.push_for(CHAT.id, DAY)
    assert sent == Push(CHAT.id, DAY, SLOT, PushStatus.SENT, ask.id, 777, 1)
    stored = await store.get_ask(ask.id)
    assert stored is not None
    assert stored.message_id == 777
    assert await store.pending_pushes(10) == []


async def test_failed_attempts_count_until_the_final_one(store: SqlStore, raw: Raw) -> None:
    """A failed attempt is counted and the row stays pending; the final one marks it failed."""
    await scheduled(store)
    await record_slots(store, [decision(CHAT)], NOW)
    [push] = await store.pending_pushes(10)
    await store.mark_push_attempt(push, "timed out", final=False, now=SLOT)
    retried = await store.push_for(CHAT.id, DAY)
    assert retried is not None
    assert (retried.status, retried.attempts) == (PushStatus.PENDING, 1)
    await store.mark_push_attempt(push, "chat not found", final=True, now=SLOT)
    failed = await store.push_for(CHAT.id, DAY)
    assert failed is not None
    assert (failed.status, failed.attempts) == (PushStatus.FAILED, 2)
    assert await raw.peek("SELECT last_error, done_at IS NOT NULL FROM daily_pushes") == [
        ("chat not found", 1)
    ]
