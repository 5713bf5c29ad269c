"""Learner reports against a real database of either engine: the rules the schema enforces, the
comment phase and its outbox message, listings; and the SQLite migration that added them."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest

from bot.core.model import (
    ChatKind,
    ChatRef,
    NewEffect,
    NewReport,
    Report,
    ReportReason,
    ReportStatus,
)
from storage.sql.store import SqlStore
from storage.sqlite import SqliteStore
from storage.sqlite.db import SqliteDatabase as Database
from storage.sqlite.db import bundled_migrations
from tests.storage.helpers import Raw, ask_in, draft, utc

NOW = utc(2026, 12, 2, 9, 30)
LATER = NOW + timedelta(minutes=10)
CHAT = ChatRef(1001, ChatKind.PRIVATE)
REPORTS = ChatRef(-1009876543210, ChatKind.SUPERGROUP)


def new_report(ask_id: int, user_id: int = 1001, question_id: str = "q1") -> NewReport:
    return NewReport(
        user_id=user_id,
        ask_id=ask_id,
        deck_id="deck",
        question_id=question_id,
        question_hash="0123456789ab",
        option_order=(2, 0, 3, 1),
        chosen=2,
        reason=ReportReason.WRONG_KEY,
        created_at=NOW,
        comment_until=LATER,
        prompt_message_id=5,
    )


async def report(store: SqlStore, draft_: NewReport, *, owed: bool = False) -> Report | None:
    """Store a report as the core does (ending the user's other comment phase first)."""
    async with store.transaction() as writes:
        await writes.end_comment_phases(draft_.user_id, draft_.created_at)
        created = await writes.create_report(draft_)
        if created is not None and owed:
            await writes.ensure_chat(REPORTS, NOW)
            effect = NewEffect(REPORTS.id, "report", report_id=created.id)
            await writes.enqueue(effect, NOW, not_before=draft_.comment_until)
        return created


async def test_a_report_round_trips(store: SqlStore) -> None:
    """A stored report reads back as create_report returned it."""
    ask = await ask_in(store, CHAT, draft(CHAT.id, NOW))
    created = await report(store, new_report(ask.id))
    assert created is not None
    assert await store.get_report(created.id) == created
    assert created.status is ReportStatus.OPEN
    assert created.comment_until == LATER


async def test_one_open_report_per_user_and_question_is_a_unique_index(
    store: SqlStore, raw: Raw
) -> None:
    """A second open report is not stored (even written around the store); once the first is
    resolved, the learner may report the question again."""
    ask = await ask_in(store, CHAT, draft(CHAT.id, NOW))
    first = await report(store, new_report(ask.id))
    assert first is not None
    assert await report(store, new_report(ask.id)) is None
    with pytest.raises(raw.integrity_error):
        await raw.execute(
            "INSERT INTO reports (user_id, ask_id, deck_id, question_id, question_hash, "
            "option_order, reason, created_at) VALUES (1001, ?, 'deck', 'q1', 'x', '0,1', "
            "'typo', 0)",
            (ask.id,),
        )
    assert await report(store, new_report(ask.id, question_id="q2")) is not None
    assert await report(store, new_report(ask.id, user_id=1002)) is not None
    assert await store.resolve_report(first.id, ReportStatus.DISMISSED, 7, NOW)
    assert await report(store, new_report(ask.id)) is not None
    assert await store.count_reports_since(1001, NOW) == 3


async def test_only_one_report_per_user_waits_for_a_comment(store: SqlStore, raw: Raw) -> None:
    """A new report ends the learner's waiting one; the schema refuses two waiting at once."""
    ask = await ask_in(store, CHAT, draft(CHAT.id, NOW))
    first = await report(store, new_report(ask.id), owed=True)
    second = await report(store, new_report(ask.id, question_id="q2"), owed=True)
    assert first is not None
    assert second is not None
    waiting = await store.awaiting_report(1001)
    assert waiting is not None
    assert waiting.id == second.id
    assert (await store.get_report(first.id)) == replace(first, comment_until=None)
    # The first one's message is due now; the second one's at its deadline.
    due = {row[0]: row[1] for row in await raw.peek("SELECT report_id, not_before FROM effects")}
    assert due == {first.id: int(NOW.timestamp() * 1000), second.id: int(LATER.timestamp() * 1000)}
    with pytest.raises(raw.integrity_error):
        await raw.execute("UPDATE reports SET comment_until = 1 WHERE id = ?", (first.id,))


async def test_filing_a_report_keeps_its_comment_and_sends_its_message_now(
    store: SqlStore,
) -> None:
    """file_report stores the comment once, ends the phase and makes the message due; a second
    filing changes nothing."""
    ask = await ask_in(store, CHAT, draft(CHAT.id, NOW))
    created = await report(store, new_report(ask.id), owed=True)
    assert created is not None
    assert await store.due_effect_chats(NOW, 10) == []
    async with store.transaction() as writes:
        assert await writes.file_report(created.id, "B too", NOW)
    async with store.transaction() as writes:
        assert not await writes.file_report(created.id, "again", NOW)
    filed = await store.get_report(created.id)
    assert filed is not None
    assert (filed.comment, filed.comment_until) == ("B too", None)
    assert await store.awaiting_report(1001) is None
    assert await store.due_effect_chats(NOW, 10) == [REPORTS.id]
    (effect,) = await store.pending_effects(REPORTS.id, 10)
    assert (effect.kind, effect.report_id) == ("report", created.id)


async def test_resolving_sets_status_time_and_resolver_once(store: SqlStore) -> None:
    """Only an open report is resolved; the first resolution stands."""
    ask = await ask_in(store, CHAT, draft(CHAT.id, NOW))
    created = await report(store, new_report(ask.id))
    assert created is not None
    assert await store.resolve_report(created.id, ReportStatus.FIXED, 7, LATER)
    assert not await store.resolve_report(created.id, ReportStatus.DISMISSED, 8, LATER)
    assert not await store.resolve_report(999, ReportStatus.FIXED, 7, LATER)
    resolved = await store.get_report(created.id)
    assert resolved is not None
    assert (resolved.status, resolved.resolved_by, resolved.resolved_at) == (
        ReportStatus.FIXED,
        7,
        LATER,
    )
    with pytest.raises(ValueError, match="fixed or dismissed"):
        await store.resolve_report(created.id, ReportStatus.OPEN, 7, LATER)


async def test_listings_filter_open_reports_and_decks_newest_first(store: SqlStore) -> None:
    """`reports()` gives the open ones or all, of one deck or every deck, newest first."""
    ask = await ask_in(store, CHAT, draft(CHAT.id, NOW))
    made = [await report(store, new_report(ask.id, question_id=f"q{n}")) for n in range(3)]
    other = await report(store, replace(new_report(ask.id), deck_id="other"))
    assert all(made)
    assert other is not None
    ids = [r.id for r in made if r is not None]
    await store.resolve_report(ids[0], ReportStatus.FIXED, 7, NOW)
    listed = await store.reports(open_only=True, deck_id=None, limit=10)
    assert [r.id for r in listed] == [other.id, ids[2], ids[1]]
    every = await store.reports(open_only=False, deck_id="deck", limit=10)
    assert [r.id for r in every] == [ids[2], ids[1], ids[0]]
    assert await store.reports(open_only=False, deck_id="none", limit=10) == []


async def test_the_reports_migration_keeps_every_effect_and_ask(db_path: Path) -> None:
    """Upgrading a version-5 database rebuilds the outbox with every row as it was; old asks
    have no content hash."""
    old = await Database.open(db_path, bundled_migrations()[:5])
    await old.close()
    with closing(sqlite3.connect(db_path)) as conn, conn:
        conn.execute("INSERT INTO chats (id, kind, created_at) VALUES (-1, 'group', 0)")
        conn.execute(
            "INSERT INTO asks (id, chat_id, deck_id, question_id, pass_no, option_order, "
            "asked_at) VALUES (1, -1, 'deck', 'q', 1, '1,0', 0)"
        )
        conn.execute(
            "INSERT INTO effects (id, chat_id, kind, ask_id, status, attempts, not_before, "
            "last_error, created_at, done_at) VALUES "
            "(4, -1, 'question', 1, 'done', 1, 0, NULL, 0, 50), "
            "(9, -1, 'reveal', 1, 'pending', 2, 70, '502', 60, NULL)"
        )
    columns = (
        "id, chat_id, thread_id, kind, ask_id, round_id, user_id, next_asked, message_id, text, "
        "status, attempts, not_before, last_error, created_at, done_at"
    )
    raw = Raw("sqlite", str(db_path))
    before = await raw.peek(f"SELECT {columns} FROM effects ORDER BY id")
    upgraded = await Database.open(db_path, bundled_migrations()[:6])
    await upgraded.close()
    assert await raw.peek(f"SELECT {columns} FROM effects ORDER BY id") == before
    assert await raw.peek("SELECT report_id FROM effects") == [(None,), (None,)]
    store = await SqliteStore.open(db_path)
    try:
        ask = await store.get_ask(1)
        assert ask is not None
        assert ask.question_hash is None
        assert await store.due_effect_chats(utc(2026, 1, 1), 10) == [-1]
        (pending,) = await store.pending_effects(-1, 10)
        assert (pending.id, pending.kind, pending.attempts) == (9, "reveal", 2)
    finally:
        await store.close()
