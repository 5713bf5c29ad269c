"""Keeping period scores right on either engine (time zone changes, recounts), and the backfill
by the SQLite migration."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import datetime, timedelta
from pathlib import Path
from random import Random
from zoneinfo import ZoneInfo

import pytest

from bot.core.model import PeriodKind
from bot.core.rules.periods import period_keys
from storage.sql import boards as board_queries
from storage.sql.rows import to_ms
from storage.sqlite import SqliteStore
from storage.sqlite.db import SqliteDatabase as Database
from storage.sqlite.db import bundled_migrations
from tests.storage.helpers import ALICE, BOB, CAROL, UTC_ZONE, Boards, Raw, utc, zone_bounds

GROUP = -123
SUPERGROUP = -100123
NEW_YORK = ZoneInfo("America/New_York")
BERLIN = ZoneInfo("Europe/Berlin")


async def test_rebuild_after_a_zone_change_moves_an_answer_to_the_previous_week(
    boards: Boards,
) -> None:
    """Sunday 23:30 in New York counted for Monday's week in UTC; in New York it is the old one."""
    sunday_late = datetime(2026, 11, 29, 23, 30, tzinfo=NEW_YORK)
    await boards.play(GROUP, sunday_late, {ALICE: True})
    await boards.play(GROUP, utc(2026, 12, 2, 12), {BOB: True})
    utc_week = utc(2026, 11, 30)
    assert set(await boards.users_on(GROUP, PeriodKind.WEEK, utc_week)) == {ALICE.id, BOB.id}

    await boards.store.rebuild_chat(GROUP, zone_bounds(NEW_YORK))

    this_week = period_keys(utc(2026, 12, 2, 12), NEW_YORK).week_start
    last_week = period_keys(sunday_late, NEW_YORK).week_start
    assert this_week - last_week == timedelta(days=7)
    assert await boards.users_on(GROUP, PeriodKind.WEEK, this_week) == [BOB.id]
    assert await boards.users_on(GROUP, PeriodKind.WEEK, last_week) == [ALICE.id]
    assert await boards.users_on(GROUP, PeriodKind.WEEK, utc_week) == []
    stored = await boards.raw.peek(
        "SELECT week_start, month_start FROM answers WHERE user_id = ?", (ALICE.id,)
    )
    assert stored == [(to_ms(last_week), to_ms(utc(2026, 11, 1, 4)))]
    alice = await boards.store.standing(GROUP, PeriodKind.WEEK, last_week, ALICE.id)
    assert alice is not None
    assert (alice.row.correct, alice.ahead) == (1, 0)
    overall = await boards.store.standing(GROUP, PeriodKind.ALL, last_week, ALICE.id)
    assert overall is not None
    assert (overall.streak, overall.best_streak) == (1, 1)


async def test_rebuild_in_the_same_zone_reproduces_what_the_trigger_kept(boards: Boards) -> None:
    """Recounting a chat from its answers gives exactly the rows the trigger maintained."""
    await boards.random_history(GROUP, BERLIN, seed=1)
    await boards.random_history(SUPERGROUP, UTC_ZONE, seed=2)
    kept, other = await boards.snapshot(GROUP), await boards.snapshot(SUPERGROUP)
    assert len(kept) > 30
    await boards.store.rebuild_chat(GROUP, zone_bounds(BERLIN))
    assert await boards.snapshot(GROUP) == kept
    assert await boards.snapshot(SUPERGROUP) == other


async def test_rebuild_pages_through_more_answers_than_a_batch(
    boards: Boards, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A chat with more answers than one page is recounted whole, streaks across pages."""
    monkeypatch.setattr(board_queries, "REBUILD_BATCH", 7)
    await boards.random_history(GROUP, NEW_YORK, seed=4)
    kept = await boards.snapshot(GROUP)
    await boards.store.rebuild_chat(GROUP, zone_bounds(NEW_YORK))
    assert await boards.snapshot(GROUP) == kept


async def test_migration_backfills_scores_of_existing_answers(db_path: Path) -> None:
    """Answers stored before the leaderboards migration get UTC periods, scores and streaks."""
    old = await Database.open(db_path, bundled_migrations()[:1])
    await old.close()
    rng = Random(3)
    with closing(sqlite3.connect(db_path)) as conn, conn:
        conn.execute("INSERT INTO chats (id, kind, created_at) VALUES (?, 'group', 0)", (GROUP,))
        for user in (ALICE, BOB, CAROL):
            conn.execute(
                "INSERT INTO users VALUES (?, ?, NULL, NULL, 0)", (user.id, user.first_name)
            )
        at = utc(2026, 10, 1)
        for ask_id in range(1, 81):
            at += timedelta(hours=rng.randint(1, 40))
            conn.execute(
                "INSERT INTO asks (id, chat_id, deck_id, question_id, pass_no, option_order, "
                "asked_at) VALUES (?, ?, 'deck', ?, 1, '0,1', ?)",
                (ask_id, GROUP, f"q{ask_id}", to_ms(at)),
            )
            for user in rng.sample([ALICE, BOB, CAROL], rng.randint(1, 3)):
                correct = int(rng.random() < 0.7)
                conn.execute(
                    "INSERT INTO answers (ask_id, user_id, chat_id, position, correct, "
                    "answered_at) VALUES (?, ?, ?, 0, ?, ?)",
                    (ask_id, user.id, GROUP, correct, to_ms(at) + user.id),
                )
    store = await SqliteStore.open(db_path)
    try:
        raw = Raw("sqlite", str(db_path))
        boards = Boards(store, raw)
        for answered_at, week_start, month_start in await raw.peek(
            "SELECT answered_at, week_start, month_start FROM answers"
        ):
            assert isinstance(answered_at, int)
            keys = period_keys(utc(1970, 1, 1) + timedelta(milliseconds=answered_at), UTC_ZONE)
            assert (week_start, month_start) == (to_ms(keys.week_start), to_ms(keys.month_start))
        backfilled = await boards.snapshot(GROUP)
        assert {row[0] for row in backfilled} == {"week", "month", "all"}
        assert any(isinstance(row[7], int) and row[7] >= 3 for row in backfilled)
        await store.rebuild_chat(GROUP, zone_bounds(UTC_ZONE))
        assert await boards.snapshot(GROUP) == backfilled
    finally:
        await store.close()
