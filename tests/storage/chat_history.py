"""A chat with something in every chat-keyed table, for the tests that move or copy chats."""

from __future__ import annotations

from datetime import date, timedelta
from random import Random
from zoneinfo import ZoneInfo

from bot.core.model import AskOrigin, ChatRef, NewEffect, PushStatus, RoundEnd, SlotDecision
from bot.core.rules.periods import period_keys
from storage.sql.store import SqlStore
from tests.storage.helpers import ALICE, BOB, CAROL, ask_in, draft, effect_sent, record_slots, utc

START = utc(2026, 11, 20, 8)
D1, D2, D3 = date(2026, 12, 1), date(2026, 12, 2), date(2026, 12, 3)


async def history(
    store: SqlStore, chat: ChatRef, zone: ZoneInfo, seed: int, days: tuple[date, ...]
) -> None:
    """Answered questions, a finished and a running round, a schedule with ledger rows and
    their asks, a done and two pending effects: a chat with something in every table."""
    rng = Random(seed)
    at = START
    for i in range(8):
        at += timedelta(hours=rng.randint(1, 30))
        ask = await ask_in(store, chat, draft(chat.id, at, f"q{i}", closes_at=at))
        for player in rng.sample([ALICE, BOB, CAROL], rng.randint(1, 3)):
            when = at + timedelta(seconds=player.id)
            right = rng.random() < 0.6
            await store.record_answer(ask, player, 0, right, when, periods=period_keys(when, zone))
    for running in (False, True):
        async with store.transaction() as writes:
            started = await writes.start_round(chat.id, None, ALICE.id, 2, at)
            assert started is not None
            question = draft(chat.id, at, "r", origin=AskOrigin.ROUND, round_id=started.id)
            ask = await writes.create_ask(question)
            if not running:
                await writes.end_round(started.id, RoundEnd.FINISHED, at)
        await store.record_answer(ask, BOB, 0, True, at, periods=period_keys(at, zone))
    slot = utc(2026, 12, 1, 8)
    await store.set_schedule(chat.id, f"{seed:02}:00", slot, D1, at)
    await record_slots(
        store, [SlotDecision(chat.id, day, slot, PushStatus.PENDING, slot, D3) for day in days], at
    )
    for day in days:
        push = await store.push_for(chat.id, day)
        assert push is not None
        await store.attach_push_ask(push, draft(chat.id, slot, "d", origin=AskOrigin.DAILY))
    assert started is not None
    async with store.transaction() as writes:
        await writes.enqueue(NewEffect(chat.id, "question", ask_id=ask.id), at)
        await writes.enqueue(NewEffect(chat.id, "notice", text="hi"), at)
        await writes.enqueue(NewEffect(chat.id, "summary", round_id=started.id), at)
    first, *_ = await store.pending_effects(chat.id, 10)
    await effect_sent(store, first, at, 99)
