"""Asks and answers against a real database, on each engine."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest

from bot.core.model import Ask, AskOrigin, ChatKind, ChatRef, Player, Tally
from bot.core.rules.periods import period_keys
from storage.sql.store import SqlStore
from storage.sql.writes import OPEN_QUIZ_ASK
from storage.sqlite import SqliteStore
from tests.storage.helpers import (
    ALICE,
    ASKED_AT,
    BOB,
    CAROL,
    FOREIGN_KEY,
    GROUP_CHAT,
    UTC_ZONE,
    Raw,
    ask_in,
    draft,
    group_ask,
    postgres_only,
    postgres_scans,
)

NOW = ASKED_AT
CHAT = GROUP_CHAT
PRIVATE = ChatRef(ALICE.id, ChatKind.PRIVATE)
PERIODS = period_keys(NOW, UTC_ZONE)
LATER = NOW + timedelta(minutes=5)


async def answer(store: SqlStore, ask: Ask, player: Player, position: int) -> bool:
    """A group answer; True when it was stored."""
    stored = await store.record_answer(
        ask, player, position, position == ask.right_position, NOW, periods=PERIODS
    )
    return stored is not None


async def test_ask_round_trips_with_option_order_times_and_origin(store: SqlStore) -> None:
    """A stored ask comes back as the object create_ask returned, plus its message id."""
    ask = await group_ask(store)
    await store.set_ask_message(ask.id, 42)
    stored = await store.get_ask(ask.id)
    assert stored == replace(ask, message_id=42)
    assert stored.option_order == (2, 0, 3, 1)
    assert stored.right_position == 1
    assert (stored.thread_id, stored.origin, stored.round_id) == (7, AskOrigin.QUIZ, None)
    assert (stored.asked_at, stored.closes_at, stored.closed_at) == (NOW, LATER, None)
    assert await store.get_ask(ask.id + 1) is None


async def test_second_answer_by_same_user_is_not_stored(store: SqlStore, raw: Raw) -> None:
    """One answer per user per ask: a second one returns None and the first stays."""
    ask = await group_ask(store)
    first = await store.record_answer(ask, ALICE, 1, True, NOW, periods=PERIODS)
    again = await store.record_answer(ask, ALICE, 3, False, LATER, periods=PERIODS)
    assert first is not None
    assert (first.position, first.correct, first.answered_at) == (1, True, NOW)
    assert again is None
    assert await store.get_answer(ask.id, ALICE.id) == first
    assert await store.get_answer(ask.id, BOB.id) is None
    assert await raw.count("answers") == 1
    assert await store.answer_count(ask.id) == 1


async def test_concurrent_answers_by_same_user_store_one(store: SqlStore) -> None:
    """Twenty simultaneous answers by one user leave exactly one row."""
    ask = await group_ask(store)
    stored = await asyncio.gather(*(answer(store, ask, ALICE, i % 4) for i in range(20)))
    assert sum(stored) == 1
    assert await store.answer_count(ask.id) == 1


async def test_private_answer_closes_its_ask_in_the_callers_transaction(
    store: SqlStore,
) -> None:
    """With close=True the ask is closed together with the answer; a repeat changes nothing."""
    ask = await ask_in(store, PRIVATE, draft(PRIVATE.id, NOW))
    async with store.transaction() as writes:
        first = await writes.record_answer(ask, ALICE, 0, False, NOW, close=True, periods=PERIODS)
    async with store.transaction() as writes:
        again = await writes.record_answer(ask, ALICE, 1, True, LATER, close=True, periods=PERIODS)
    assert first is not None
    assert again is None
    stored = await store.get_ask(ask.id)
    assert stored is not None
    assert stored.closed_at == NOW


async def test_close_ask_closes_once(store: SqlStore) -> None:
    """Closing an open ask succeeds once; the second close reports it was closed already."""
    ask = await group_ask(store)
    async with store.transaction() as writes:
        assert await writes.close_ask(ask.id, LATER)
        assert not await writes.close_ask(ask.id, LATER + timedelta(seconds=1))
    stored = await store.get_ask(ask.id)
    assert stored is not None
    assert stored.closed_at == LATER


async def test_user_stats_count_answers_in_that_chat_only(store: SqlStore) -> None:
    """Stats are per chat: answers elsewhere do not count."""
    ask = await group_ask(store)
    elsewhere = await ask_in(store, PRIVATE, draft(PRIVATE.id, NOW))
    await store.record_answer(ask, ALICE, 1, True, NOW, periods=PERIODS)
    async with store.transaction() as writes:
        await writes.record_answer(elsewhere, ALICE, 1, False, NOW, close=True, periods=PERIODS)
    stats = await store.user_stats(CHAT.id, ALICE.id)
    assert (stats.answered, stats.correct, stats.accuracy) == (1, 1, 1.0)
    nobody = await store.user_stats(CHAT.id, BOB.id)
    assert (nobody.answered, nobody.correct) == (0, 0)


async def test_pass_state_reports_latest_pass_and_last_question(store: SqlStore) -> None:
    """The pass state is the highest pass with the questions asked in it, newest last asked."""
    await group_ask(store, "q1", 1)
    await group_ask(store, "q2", 1)
    await group_ask(store, "q3", 2)
    state = await store.pass_state(CHAT.id, "deck")
    assert (state.pass_no, state.asked, state.last_asked) == (2, frozenset({"q3"}), "q3")
    empty = await store.pass_state(999, "deck")
    assert (empty.pass_no, empty.asked, empty.last_asked) == (1, frozenset(), None)


async def test_answer_for_unknown_ask_is_rejected_by_foreign_key(store: SqlStore, raw: Raw) -> None:
    """Foreign keys are enforced: an answer cannot point at an ask that does not exist."""
    ask = await group_ask(store)
    with pytest.raises(raw.integrity_error, match=FOREIGN_KEY):
        await store.record_answer(replace(ask, id=9999), ALICE, 0, True, NOW, periods=PERIODS)


async def test_tally_counts_answers_and_names_the_first_right(store: SqlStore) -> None:
    """The tally has how many answered, how many right, and who was right first."""
    ask = await group_ask(store)
    assert await store.tally(ask.id) == Tally(0, 0, None)
    await store.record_answer(ask, ALICE, 0, False, NOW, periods=PERIODS)
    await store.record_answer(ask, CAROL, 1, True, NOW + timedelta(seconds=2), periods=PERIODS)
    await store.record_answer(ask, BOB, 1, True, NOW + timedelta(seconds=1), periods=PERIODS)
    assert await store.tally(ask.id) == Tally(answered=3, correct=2, first_right=BOB)


async def test_due_asks_are_open_ones_past_their_deadline_oldest_first(
    store: SqlStore,
) -> None:
    """Only posted open asks whose deadline has come, by deadline, at most `limit` of them."""
    asks = []
    for minutes in (3, 1, 2, 30):
        question = draft(CHAT.id, NOW, f"q{minutes}", closes_at=NOW + timedelta(minutes=minutes))
        asks.append(await ask_in(store, CHAT, question))
        await store.set_ask_message(asks[-1].id, 100 + minutes)
    await ask_in(store, CHAT, draft(CHAT.id, NOW, "unposted", closes_at=NOW))  # no message yet
    await ask_in(store, PRIVATE, draft(PRIVATE.id, NOW))  # no deadline
    async with store.transaction() as writes:
        await writes.close_ask(asks[2].id, NOW)
    due = await store.due_asks(NOW + timedelta(minutes=3), 10)
    assert [a.id for a in due] == [asks[1].id, asks[0].id]
    assert [a.id for a in await store.due_asks(NOW + timedelta(minutes=3), 1)] == [asks[1].id]


async def test_open_quiz_ask_is_the_newest_open_quiz_question_of_the_thread(
    store: SqlStore,
) -> None:
    """Rounds' and daily questions, closed and expired ones and other threads do not count."""
    async with store.transaction() as writes:
        await writes.upsert_chat(CHAT, NOW)
        started = await writes.start_round(CHAT.id, 7, ALICE.id, 3, NOW)
        assert started is not None
        older = await writes.create_ask(draft(CHAT.id, NOW, "a", thread_id=7, closes_at=LATER))
        newest = await writes.create_ask(draft(CHAT.id, NOW, "b", thread_id=7, closes_at=LATER))
        closed = await writes.create_ask(draft(CHAT.id, NOW, "c", thread_id=7, closes_at=LATER))
        await writes.close_ask(closed.id, NOW)
        for origin, round_id in ((AskOrigin.ROUND, started.id), (AskOrigin.DAILY, None)):
            question = draft(CHAT.id, NOW, "d", thread_id=7, origin=origin, round_id=round_id)
            await writes.create_ask(replace(question, closes_at=LATER))
        outside = await writes.create_ask(draft(CHAT.id, NOW, "e", closes_at=NOW))
    found = await store.open_quiz_ask(CHAT.id, 7, NOW)
    assert found == newest
    assert older.id < newest.id
    assert await store.open_quiz_ask(CHAT.id, 8, NOW) is None
    # Outside forum topics (thread None) is a thread of its own; a deadline that has come ends it.
    assert await store.open_quiz_ask(CHAT.id, None, NOW - timedelta(seconds=1)) == outside
    assert await store.open_quiz_ask(CHAT.id, None, NOW) is None
    assert await store.open_quiz_ask(CHAT.id, 7, LATER) is None
    # A private question has no deadline: it is open until answered.
    private = await ask_in(store, PRIVATE, draft(PRIVATE.id, NOW))
    assert await store.open_quiz_ask(PRIVATE.id, None, LATER + timedelta(days=9)) == private


async def test_open_quiz_ask_is_served_by_its_partial_index(db_path: Path) -> None:
    """SQLite reads the lookup from the partial index of open `/quiz` asks, not the table."""
    store = await SqliteStore.open(db_path)
    await store.close()
    with closing(sqlite3.connect(db_path)) as conn:
        plan = conn.execute(f"EXPLAIN QUERY PLAN {OPEN_QUIZ_ASK}", (1, None, 0)).fetchall()
    assert "USING INDEX asks_open_quiz" in " ".join(row[3] for row in plan)


@postgres_only
async def test_open_quiz_ask_is_served_by_its_partial_index_on_postgres(raw: Raw) -> None:
    """PostgreSQL, with the statistics of a busy table, reads the same partial index for the
    lookup, in the plan for the given values and in the generic one."""
    await raw.execute(
        "INSERT INTO chats (id, kind, created_at) "
        "SELECT -c, 'supergroup', 0 FROM generate_series(1, 100) AS c"
    )
    # Most asks closed, a third each of quiz, round and daily, threads None, 1 and 2.
    await raw.execute(
        "INSERT INTO asks (chat_id, thread_id, deck_id, question_id, pass_no, option_order, "
        "asked_at, closes_at, closed_at, origin) "
        "SELECT -(1 + n % 100), NULLIF(n % 3, 0), 'deck', 'q' || n, 1, '0,1', n, n + 60000, "
        "CASE WHEN n % 100 = 0 THEN NULL ELSE n + 1 END, "
        "(ARRAY['quiz', 'round', 'daily'])[1 + n % 3] "
        "FROM generate_series(1, 5000) AS n"
    )
    await raw.execute("ANALYZE asks")
    for thread_id in (None, 1):
        scans = await postgres_scans(raw, OPEN_QUIZ_ASK, (-5, thread_id, 0))
        assert scans == {"custom": ["asks_open_quiz"], "generic": ["asks_open_quiz"]}


async def test_round_asks_are_the_rounds_questions_in_order(store: SqlStore) -> None:
    """round_asks lists the asks of one round, oldest first, with their origin."""
    async with store.transaction() as writes:
        await writes.upsert_chat(CHAT, NOW)
        started = await writes.start_round(CHAT.id, None, ALICE.id, 3, NOW)
        assert started is not None
        made = [
            await writes.create_ask(
                draft(CHAT.id, NOW, f"q{i}", origin=AskOrigin.ROUND, round_id=started.id)
            )
            for i in range(3)
        ]
        await writes.create_ask(draft(CHAT.id, NOW, "not in the round"))
    assert await store.round_asks(started.id) == made
    assert await store.round_asks(started.id + 1) == []
