"""Keeping period scores right: chat id changes, time zone changes, and the migration backfill."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta
from pathlib import Path
from random import Random
from zoneinfo import ZoneInfo

from bot.core.periods import EPOCH, PeriodKind, period_keys
from storage.db import Database, bundled_migrations
from storage.leaderboards import LeaderboardRepository
from storage.repository import Repository, to_ms
from tests.storage.boards import ALICE, BOB, CAROL, UTC_ZONE, Boards, utc

GROUP = -123
SUPERGROUP = -100123
NEW_YORK = ZoneInfo("America/New_York")
BERLIN = ZoneInfo("Europe/Berlin")


async def test_group_becoming_a_supergroup_keeps_its_boards(boards: Boards) -> None:
    """`UPDATE chats SET id` carries every row referring to the chat along, and play goes on."""
    await boards.play(GROUP, utc(2026, 12, 1, 9), {ALICE: True, BOB: False})
    before = await boards.snapshot(GROUP)
    async with boards.db.transaction() as conn:
        await conn.execute("UPDATE chats SET id = ? WHERE id = ?", (SUPERGROUP, GROUP))
    assert await boards.snapshot(SUPERGROUP) == before
    assert await boards.snapshot(GROUP) == []
    tables = [
        row[0]
        for row in await boards.db.fetch_all("SELECT name FROM sqlite_master WHERE type = 'table'")
    ]
    referring = []
    for table in tables:
        for fk in await boards.db.fetch_all(f"PRAGMA foreign_key_list({table})"):
            if fk[2] == "chats":
                referring.append(table)
                row = await boards.db.fetch_one(
                    f"SELECT count(*) FROM {table} WHERE {fk[3]} = ?", (GROUP,)
                )
                assert row is not None
                assert row[0] == 0, table
    assert {"asks", "answers", "period_scores"} <= set(referring)
    assert await boards.db.fetch_all("PRAGMA foreign_key_check") == []
    await boards.play(SUPERGROUP, utc(2026, 12, 2, 9), {BOB: True})
    board = await boards.boards.top(SUPERGROUP, PeriodKind.ALL, EPOCH)
    assert [(e.user_id, e.correct, e.answered) for e in board.entries] == [
        (ALICE.id, 1, 1),
        (BOB.id, 1, 2),
    ]


async def test_rebuild_after_a_zone_change_moves_an_answer_to_the_previous_week(
    boards: Boards,
) -> None:
    """Sunday 23:30 in New York counted for Monday's week in UTC; in New York it is the old one."""
    sunday_late = datetime(2026, 11, 29, 23, 30, tzinfo=NEW_YORK)
    await boards.play(GROUP, sunday_late, {ALICE: True})
    await boards.play(GROUP, utc(2026, 12, 2, 12), {BOB: True})
    utc_week = utc(2026, 11, 30)
    assert set(await boards.users_on(GROUP, PeriodKind.WEEK, utc_week)) == {ALICE.id, BOB.id}

    await boards.boards.rebuild_chat(GROUP, NEW_YORK)

    this_week = period_keys(utc(2026, 12, 2, 12), NEW_YORK).week_start
    last_week = period_keys(sunday_late, NEW_YORK).week_start
    assert this_week - last_week == timedelta(days=7)
    assert await boards.users_on(GROUP, PeriodKind.WEEK, this_week) == [BOB.id]
    assert await boards.users_on(GROUP, PeriodKind.WEEK, last_week) == [ALICE.id]
    assert await boards.users_on(GROUP, PeriodKind.WEEK, utc_week) == []
    row = await boards.db.fetch_one(
        "SELECT week_start, month_start FROM answers WHERE user_id = ?", (ALICE.id,)
    )
    assert row is not None
    assert (row[0], row[1]) == (to_ms(last_week), to_ms(utc(2026, 11, 1, 4)))
    summary = await boards.boards.player_summary(GROUP, ALICE.id, last_week)
    assert summary is not None
    assert (summary.points, summary.streak, summary.week_rank) == (1, 1, 1)


async def test_rebuild_in_the_same_zone_reproduces_what_the_trigger_kept(boards: Boards) -> None:
    """Recounting a chat from its answers gives exactly the rows the trigger maintained."""
    await boards.random_history(GROUP, BERLIN, seed=1)
    await boards.random_history(SUPERGROUP, UTC_ZONE, seed=2)
    kept, other = await boards.snapshot(GROUP), await boards.snapshot(SUPERGROUP)
    assert len(kept) > 30
    await boards.boards.rebuild_chat(GROUP, BERLIN)
    assert await boards.snapshot(GROUP) == kept
    assert await boards.snapshot(SUPERGROUP) == other


async def test_migration_backfills_scores_of_existing_answers(tmp_path: Path) -> None:
    """Answers stored before the leaderboards migration get UTC periods, scores and streaks."""
    path = tmp_path / "quiz.sqlite3"
    old = await Database.open(path, bundled_migrations()[:1])
    await old.close()
    rng = Random(3)
    with sqlite3.connect(path) as conn:
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
    conn.close()
    db = await Database.open(path)
    try:
        boards = Boards(db, Repository(db), LeaderboardRepository(db))
        rows = await db.fetch_all("SELECT answered_at, week_start, month_start FROM answers")
        for answered_at, week_start, month_start in rows:
            keys = period_keys(utc(1970, 1, 1) + timedelta(milliseconds=answered_at), UTC_ZONE)
            assert (week_start, month_start) == (to_ms(keys.week_start), to_ms(keys.month_start))
        backfilled = await boards.snapshot(GROUP)
        assert {row[0] for row in backfilled} == {"week", "month", "all"}
        assert any(row[7] >= 3 for row in backfilled)
        await boards.boards.rebuild_chat(GROUP, UTC_ZONE)
        assert await boards.snapshot(GROUP) == backfilled
    finally:
        await db.close()
