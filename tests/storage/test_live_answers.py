"""New answers read back by answer id, for the leader's live counts (both engines)."""

from __future__ import annotations

from datetime import timedelta

from bot.core.model import ChatKind, ChatRef
from bot.core.rules.periods import period_keys
from storage.sql.store import SqlStore
from tests.storage.helpers import ALICE, BOB, CAROL, UTC_ZONE, ask_in, draft, utc

NOW = utc(2026, 12, 2, 9, 30)
CHAT = ChatRef(-100123, ChatKind.SUPERGROUP, "Study group")
PERIODS = period_keys(NOW, UTC_ZONE)


async def test_a_new_reader_starts_from_the_newest_answer(store: SqlStore) -> None:
    """Without a starting id only the newest id comes back, and no asks."""
    assert await store.answered_asks_after(None, 10) == (0, [])
    ask = await ask_in(store, CHAT, draft(CHAT.id, NOW, closes_at=NOW + timedelta(minutes=5)))
    await store.record_answer(ask, ALICE, 1, True, NOW, periods=PERIODS)
    last, asks = await store.answered_asks_after(None, 10)
    assert last > 0
    assert asks == []


async def test_answers_after_an_id_name_each_of_their_asks_once(store: SqlStore) -> None:
    """Two asks answered since the mark come back once each, with the highest answer id."""
    later = NOW + timedelta(minutes=5)
    first = await ask_in(store, CHAT, draft(CHAT.id, NOW, "q1", closes_at=later))
    second = await ask_in(store, CHAT, draft(CHAT.id, NOW, "q2", closes_at=later))
    await store.record_answer(first, ALICE, 1, True, NOW, periods=PERIODS)
    mark, _ = await store.answered_asks_after(None, 10)
    for player in (BOB, CAROL):
        await store.record_answer(first, player, 0, False, NOW, periods=PERIODS)
        await store.record_answer(second, player, 2, True, NOW, periods=PERIODS)
    last, asks = await store.answered_asks_after(mark, 10)
    assert sorted(ask.id for ask in asks) == [first.id, second.id]
    assert last == mark + 4
    assert await store.answered_asks_after(last, 10) == (last, [])
    # A small limit reads the oldest new answers first; the rest come next time.
    partial, some = await store.answered_asks_after(mark, 1)
    assert (partial, [ask.id for ask in some]) == (mark + 1, [first.id])
