"""A SQLite database with a row in every table, and reading both sides of a copy of it."""

from __future__ import annotations

import hashlib
import sqlite3
from contextlib import closing
from datetime import date, timedelta
from functools import partial
from pathlib import Path
from zoneinfo import ZoneInfo

import asyncpg

from bot.core.memory.scheduling import Memory
from bot.core.model import (
    AskOrigin,
    ChatKind,
    ChatRef,
    ExamDraft,
    ExamEnd,
    ExamItemDraft,
    ItemParameters,
    LearnSource,
    MemoryFit,
    NewEffect,
    NewReport,
    PeriodKind,
    Player,
    ReportReason,
    RoundKind,
    UpdateMark,
)
from bot.core.rules.periods import period_keys
from storage.sql.rows import from_ms
from storage.sql.store import SqlStore
from storage.sqlite import SqliteStore
from tests.storage.chat_history import history
from tests.storage.helpers import ALICE, BOB, UTC_ZONE, Boards, Raw, ask_in, draft, utc

BERLIN = ZoneInfo("Europe/Berlin")
GROUP = ChatRef(-100777, ChatKind.SUPERGROUP, "Study")
OTHER = ChatRef(-100888, ChatKind.SUPERGROUP, "Second")
PRIVATE = ChatRef(ALICE.id, ChatKind.PRIVATE)
REPORTS = ChatRef(-100999, ChatKind.SUPERGROUP, "Reports")
START = utc(2026, 9, 20, 6)
MEMORY = Memory()
P0 = Player(10, "P0")  # one of random_history's players
# The tables the copy fills (schema_migrations and the runtime state are left out).
COPIED = (
    "chats",
    "users",
    "rounds",
    "asks",
    "answers",
    "period_scores",
    "learning_log",
    "cards",
    "daily_schedules",
    "daily_pushes",
    "reports",
    "exams",
    "exam_questions",
    "effects",
    "handled_updates",
    "item_parameters",
    "memory_parameters",
    "selections",
)


async def private_answer(
    store: SqlStore, question_id: str, correct: bool, at_days: int, round_id: int | None = None
) -> None:
    """Alice answers in private (a review round's question if `round_id`); a miss makes a card."""
    at = START + timedelta(days=at_days)
    origin = AskOrigin.QUIZ if round_id is None else AskOrigin.ROUND
    ask = await ask_in(
        store, PRIVATE, draft(PRIVATE.id, at, question_id, origin=origin, round_id=round_id)
    )
    review = partial(
        MEMORY.review,
        user_id=ALICE.id,
        deck_id=ask.deck_id,
        question_id=question_id,
        correct=correct,
        now=at,
    )
    position = ask.right_position if correct else (ask.right_position + 1) % 4
    periods = period_keys(at, UTC_ZONE)
    await store.record_answer(ask, ALICE, position, correct, at, periods=periods, review=review)


async def fill(store: SqlStore, path: Path) -> None:
    """Something in every table: two groups answering over three months (week, month and
    all-time boards differ), rounds, a schedule with its pushes, effects, private answers with
    cards and a review round, a pick not yet submitted, a report, a submitted exam and a
    deck's item parameters."""
    await Boards(store, Raw("sqlite", str(path))).random_history(GROUP.id, BERLIN, seed=3)
    await history(store, OTHER, BERLIN, seed=5, days=(date(2026, 12, 1), date(2026, 12, 2)))
    for day, correct in enumerate((False, True, False)):
        await private_answer(store, f"p{day}", correct, day * 9)
    async with store.transaction() as writes:
        review = await writes.start_round(
            PRIVATE.id, None, ALICE.id, 1, START, kind=RoundKind.REVIEW
        )
    assert review is not None
    await private_answer(store, "p0", True, 30, round_id=review.id)
    ask = await ask_in(store, PRIVATE, draft(PRIVATE.id, START, "reported"))
    assert await store.toggle_pick(ask.id, BOB.id, 1, START) == frozenset({1})
    async with store.transaction() as writes:
        report = await writes.create_report(
            NewReport(
                ALICE.id,
                ask.id,
                "deck",
                "reported",
                "0123456789ab",
                (2, 0, 3, 1),
                2,
                ReportReason.UNCLEAR,
                START,
                START + timedelta(minutes=10),
            )
        )
        assert report is not None
        await writes.ensure_chat(REPORTS, START)
        await writes.enqueue(NewEffect(REPORTS.id, "report", report_id=report.id), START)
    items = tuple(ExamItemDraft(f"q{i}", "t", (2, 0, 1, 3), "abc") for i in range(3))
    async with store.transaction() as writes:
        await writes.upsert_chat(ChatRef(BOB.id, ChatKind.PRIVATE), START)
        exam = await writes.create_exam(
            ExamDraft(BOB.id, BOB.id, "deck", 70, START, START + timedelta(minutes=5), items)
        )
    assert exam is not None
    assert await store.answer_exam(exam.id, 0, 1, START)
    async with store.transaction() as writes:
        assert await writes.submit_exam(exam.id, ExamEnd.USER, START)
        await writes.log_learning(BOB.id, "deck", "q0", True, START, 1500, LearnSource.EXAM)
        await writes.enqueue(NewEffect(BOB.id, "exam_result", exam_id=exam.id), START)
    assert await store.record_handled(UpdateMark(4242, START))
    fitted = (
        ItemParameters("deck", "q0", -0.75, 1.25, 0.2, 41, False, START),
        ItemParameters("deck", "q1", 0.0, 1.0, 0.25, 3, True, START),
    )
    await store.save_item_parameters("deck", fitted)
    weights = tuple(0.1 * (n + 1) for n in range(21))
    await store.save_memory_fit(MemoryFit(BOB.id, "deck", weights, 512, 0.41, 0.37, START))
    await store.save_memory_fit(MemoryFit(ALICE.id, "deck", None, 430, 0.33, 0.34, START))


async def build(path: Path) -> None:
    store = await SqliteStore.open(path)
    try:
        await fill(store, path)
    finally:
        await store.close()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


async def pg_columns(conn: asyncpg.Connection, table: str) -> list[str]:
    found = await conn.fetch(
        "SELECT column_name FROM information_schema.columns WHERE table_name = $1 "
        "AND table_schema = current_schema() ORDER BY ordinal_position",
        table,
    )
    return [str(row[0]) for row in found]


async def contents(path: Path, url: str) -> tuple[dict[str, list[tuple[object, ...]]], ...]:
    """Every row of every copied table, on each side, sorted (PostgreSQL's column order)."""
    mine, theirs = {}, {}
    conn = await asyncpg.connect(url)
    try:
        with closing(sqlite3.connect(path)) as db:
            for table in COPIED:
                columns = ", ".join(await pg_columns(conn, table))
                query = f"SELECT {columns} FROM {table}"
                mine[table] = sorted((tuple(r) for r in db.execute(query)), key=repr)
                theirs[table] = sorted((tuple(r) for r in await conn.fetch(query)), key=repr)
    finally:
        await conn.close()
    return mine, theirs


async def boards_of(store: SqlStore, keys: list[tuple[object, ...]]) -> list[object]:
    """Each board as the store ranks it (top 1000), with each player's standing on it."""
    found: list[object] = []
    for chat_id, period, start in keys:
        assert isinstance(chat_id, int)
        assert isinstance(start, int)
        kind, begins = PeriodKind(period), from_ms(start)
        top = await store.top(chat_id, kind, begins, 1000)
        found.append(top)
        for row in top:
            found.append(await store.standing(chat_id, kind, begins, row.player.id))
    return found
