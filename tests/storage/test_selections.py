""" "Choose N" picks before Submit and answers with several positions, on both engines: a
press toggles one bit atomically, an answer keeps every position, /forgetme deletes picks."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import timedelta

from bot.core.model import NewReport, Player, ReportReason
from bot.core.rules.periods import period_keys
from storage.sql.store import SqlStore
from tests.storage.helpers import ALICE, ASKED_AT, UTC_ZONE, Raw, group_ask


async def test_a_press_picks_and_a_second_unpicks(store: SqlStore) -> None:
    """Toggling positions 0, 2, 0 leaves {2}; another user's picks are apart."""
    ask = await group_ask(store)
    assert await store.toggle_pick(ask.id, ALICE.id, 0, ASKED_AT) == frozenset({0})
    assert await store.toggle_pick(ask.id, ALICE.id, 2, ASKED_AT) == frozenset({0, 2})
    assert await store.toggle_pick(ask.id, ALICE.id, 0, ASKED_AT) == frozenset({2})
    assert await store.picks_of(ask.id, ALICE.id) == frozenset({2})
    assert await store.picks_of(ask.id, ALICE.id + 1) == frozenset()


async def test_concurrent_presses_of_different_letters_all_count(store: SqlStore) -> None:
    """Four letters pressed at once: all four picked (no press overwrites another)."""
    ask = await group_ask(store)
    await asyncio.gather(*(store.toggle_pick(ask.id, ALICE.id, p, ASKED_AT) for p in range(4)))
    assert await store.picks_of(ask.id, ALICE.id) == frozenset(range(4))


async def test_an_answer_keeps_every_position_submitted(store: SqlStore) -> None:
    """A "choose two" answer reads back with both positions; a one-letter answer with one."""
    ask = await group_ask(store)
    periods = period_keys(ASKED_AT, UTC_ZONE)
    picked = frozenset({1, 3})
    await store.record_answer(ask, ALICE, 1, True, ASKED_AT, periods=periods, picked=picked)
    stored = await store.get_answer(ask.id, ALICE.id)
    assert stored is not None
    assert (stored.position, stored.positions, stored.picked) == (1, picked, picked)
    bob = Player(ALICE.id + 1, "Bob")
    await store.record_answer(ask, bob, 2, False, ASKED_AT, periods=periods)
    single = await store.get_answer(ask.id, bob.id)
    assert single is not None
    assert (single.positions, single.picked) == (frozenset({2}), None)


async def test_forgetting_a_user_deletes_their_picks(store: SqlStore, raw: Raw) -> None:
    """/forgetme leaves no selections row of the user."""
    ask = await group_ask(store)
    await store.toggle_pick(ask.id, ALICE.id, 1, ASKED_AT)
    await store.forget_user(ALICE.id, {})
    assert await raw.count("selections", "user_id = ?", (ALICE.id,)) == 0


async def test_a_report_keeps_every_position_a_choose_n_answer_submitted(store: SqlStore) -> None:
    """A report on a "choose two" question reads back with both positions the learner had."""
    ask = await group_ask(store)
    new = NewReport(
        user_id=ALICE.id,
        ask_id=ask.id,
        deck_id=ask.deck_id,
        question_id=ask.question_id,
        question_hash="0123456789ab",
        option_order=ask.option_order,
        chosen=1,
        reason=ReportReason.WRONG_KEY,
        created_at=ASKED_AT,
        comment_until=ASKED_AT + timedelta(minutes=5),
    )
    async with store.transaction() as writes:
        made = await writes.create_report(replace(new, picked=frozenset({1, 3})))
    assert made is not None
    stored = await store.get_report(made.id)
    assert stored is not None
    assert stored.chosen_positions == frozenset({1, 3})
