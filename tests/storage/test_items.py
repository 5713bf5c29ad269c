"""The item analysis reads against a real database (either engine): first answers, posting
times, reports."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path

import asyncpg

from bot.core.model import (
    Ask,
    AskOrigin,
    ChatKind,
    ChatRef,
    NewEffect,
    Player,
    PushStatus,
    SlotDecision,
)
from bot.core.ports import FirstAnswer
from bot.core.rules.periods import period_keys
from storage.postgres.db import PostgresDatabase
from storage.postgres.migrate import bundled_migrations as postgres_migrations
from storage.postgres.migrate import migrate
from storage.postgres.store import PostgresStore
from storage.sql.store import SqlStore
from storage.sqlite import SqliteStore
from storage.sqlite.db import SqliteDatabase as Database
from storage.sqlite.db import bundled_migrations
from tests.storage.helpers import (
    ALICE,
    BOB,
    CAROL,
    UTC_ZONE,
    Raw,
    ask_in,
    draft,
    effect_sent,
    push_sent,
    record_slots,
    utc,
)

NOW = utc(2026, 12, 2, 9, 0)
GROUP = ChatRef(-100123, ChatKind.SUPERGROUP, "Study group")
OTHER = ChatRef(-100456, ChatKind.SUPERGROUP, "Other group")


async def asked(
    store: SqlStore,
    chat: ChatRef,
    question_id: str,
    at: timedelta,
    *,
    deck_id: str = "deck",
    order: tuple[int, ...] = (2, 0, 3, 1),
) -> Ask:
    """An ask of `question_id` in `chat`, `at` after NOW."""
    question = replace(draft(chat.id, NOW + at, question_id), deck_id=deck_id, option_order=order)
    return await ask_in(store, chat, question)


async def answered(
    store: SqlStore, ask: Ask, player: Player, position: int, after: timedelta
) -> None:
    """The player presses `position`, `after` the ask was asked."""
    at = ask.asked_at + after
    correct = position == ask.right_position
    stored = await store.record_answer(
        ask, player, position, correct, at, periods=period_keys(at, UTC_ZONE)
    )
    assert stored is not None


async def test_first_answers_keep_each_users_earliest_answer_across_chats_and_asks(
    store: SqlStore,
) -> None:
    """Alice's first answer to q1 (wrong, in one group) counts; her later right ones in another
    group and in a later ask do not. Rows come by question, then user."""
    first = await asked(store, GROUP, "q1", timedelta(0))
    other = await asked(store, OTHER, "q1", timedelta(hours=1), order=(0, 1, 2, 3))
    again = await asked(store, GROUP, "q1", timedelta(days=1))
    q0 = await asked(store, GROUP, "q0", timedelta(hours=2))
    await answered(store, first, ALICE, 3, timedelta(seconds=7))
    await answered(store, other, ALICE, 0, timedelta(seconds=5))
    await answered(store, again, ALICE, 1, timedelta(seconds=5))
    await answered(store, other, BOB, 2, timedelta(seconds=9))
    await answered(store, q0, BOB, 1, timedelta(seconds=3))
    found = await store.first_answers("deck")
    assert [(a.question_id, a.user_id) for a in found] == [
        ("q0", BOB.id),
        ("q1", ALICE.id),
        ("q1", BOB.id),
    ]
    alice = found[1]
    assert alice == FirstAnswer(
        user_id=ALICE.id,
        question_id="q1",
        option_order=(2, 0, 3, 1),
        position=3,
        correct=False,
        asked_at=NOW,
        posted_at=None,
        answered_at=NOW + timedelta(seconds=7),
    )
    assert (found[2].option_order, found[2].position) == ((0, 1, 2, 3), 2)


async def test_first_answers_and_answered_decks_keep_decks_apart(store: SqlStore) -> None:
    """Answers to another deck's question of the same id are not this deck's; decks with only
    unanswered asks are not listed as answered."""
    mine = await asked(store, GROUP, "q1", timedelta(0))
    theirs = await asked(store, GROUP, "q1", timedelta(minutes=1), deck_id="other")
    await asked(store, GROUP, "q1", timedelta(minutes=2), deck_id="silent")
    await answered(store, theirs, ALICE, 0, timedelta(seconds=1))
    await answered(store, mine, BOB, 1, timedelta(seconds=1))
    assert [a.user_id for a in await store.first_answers("deck")] == [BOB.id]
    assert [a.user_id for a in await store.first_answers("other")] == [ALICE.id]
    assert await store.first_answers("silent") == []
    assert await store.answered_decks() == ["deck", "other"]


async def test_posting_time_is_kept_on_the_ask_when_it_is_posted(store: SqlStore) -> None:
    """An ask posted as a question has the time its message was recorded; a daily ask the
    time its push was sent; an ask never posted has None (the outbox may forget both)."""
    posted = await asked(store, GROUP, "q1", timedelta(0))
    async with store.transaction() as writes:
        question = NewEffect(GROUP.id, "question", ask_id=posted.id)
        await writes.enqueue(question, NOW)
    [effect] = await store.pending_effects(GROUP.id, 10)
    await effect_sent(store, effect, NOW + timedelta(seconds=4), 50)

    slot = NOW + timedelta(hours=1)
    await store.upsert_chat(OTHER, NOW)
    await store.set_schedule(OTHER.id, "10:00", slot, date(2026, 12, 2), NOW)
    day = SlotDecision(
        OTHER.id, date(2026, 12, 2), slot, PushStatus.PENDING, slot + timedelta(days=1),
        date(2026, 12, 3),
    )  # fmt: skip
    await record_slots(store, [day], NOW)
    [push] = await store.pending_pushes(10)
    daily_draft = draft(OTHER.id, slot, "q2", origin=AskOrigin.DAILY)
    daily = await store.attach_push_ask(push, daily_draft)
    await push_sent(store, push, daily.id, 60, slot + timedelta(seconds=2))

    unposted = await asked(store, GROUP, "q3", timedelta(hours=2))
    for ask in (posted, daily, unposted):
        await answered(store, ask, CAROL, 1, timedelta(seconds=30))
    found = {a.question_id: a.posted_at for a in await store.first_answers("deck")}
    assert found == {
        "q1": NOW + timedelta(seconds=4),
        "q2": slot + timedelta(seconds=2),
        "q3": None,
    }


async def add_reports(raw: Raw, ask: Ask, reports: list[tuple[str, str, str]]) -> None:
    """Learner reports (deck, question, status) on `ask`, one learner each, as migration 0006
    stores them."""
    rows = [
        (1000 + n, ask.id, deck_id, question_id, status, None if status == "open" else 1)
        for n, (deck_id, question_id, status) in enumerate(reports)
    ]
    await raw.executemany(
        "INSERT INTO reports (user_id, ask_id, deck_id, question_id, question_hash, "
        "option_order, reason, status, created_at, resolved_at) "
        "VALUES (?, ?, ?, ?, 'hash', '2,0,3,1', 'unclear', ?, 0, ?)",
        rows,
    )


async def test_open_reports_are_none_before_the_reports_table_exists(db_path: Path) -> None:
    """On a database from before learner reports (schema 5, no reports table) every count is
    zero: an empty map, no error."""
    store = SqliteStore(await Database.open(db_path, bundled_migrations()[:5]))
    try:
        assert await store.open_reports("deck") == {}
    finally:
        await store.close()


async def test_open_reports_are_none_before_the_reports_table_exists_on_postgres(
    pg_url: str,
) -> None:
    """On a PostgreSQL database at schema 5 (no reports table) too: an empty map, no error."""
    conn = await asyncpg.connect(pg_url)
    try:
        await migrate(conn, postgres_migrations()[:5])
    finally:
        await conn.close()
    pool = await asyncpg.create_pool(pg_url, min_size=1, max_size=1)
    store = PostgresStore(PostgresDatabase(pool, pg_url))
    try:
        assert await store.open_reports("deck") == {}
    finally:
        await store.close()


async def test_open_reports_count_the_decks_open_ones_per_question(
    store: SqlStore, raw: Raw
) -> None:
    """Only open reports of this deck count, grouped by question."""
    ask = await asked(store, GROUP, "q1", timedelta(0))
    await add_reports(
        raw,
        ask,
        [
            ("deck", "q1", "open"),
            ("deck", "q1", "open"),
            ("deck", "q1", "fixed"),
            ("deck", "q2", "dismissed"),
            ("deck", "q3", "open"),
            ("other", "q1", "open"),
        ],
    )
    assert await store.open_reports("deck") == {"q1": 2, "q3": 1}
    assert await store.open_reports("nothing") == {}
