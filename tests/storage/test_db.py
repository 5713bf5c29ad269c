"""The SQLite file (PRAGMAs, migrations, refusing a newer schema), transactions on either
engine, and layering."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from datetime import timedelta
from pathlib import Path

import pytest

from bot.core.model import AskOrigin, ChatKind, ChatRef, NewEffect, RoundEnd
from storage.migrations import Migration
from storage.sql.store import SqlStore
from storage.sqlite import SchemaTooNewError, SqliteStore
from storage.sqlite.db import SqliteDatabase as Database
from storage.sqlite.db import bundled_migrations
from tests.storage.helpers import Raw, draft, utc

NOW = utc(2026, 12, 2, 9, 30)
CHAT = ChatRef(-100123, ChatKind.SUPERGROUP, "Study group")
STORAGE = Path(__file__).resolve().parents[2] / "storage"


async def test_open_creates_file_and_directory_with_wal_and_foreign_keys(tmp_path: Path) -> None:
    """Opening a path in a missing folder creates it, with WAL, NORMAL sync, FKs and a timeout."""
    path = tmp_path / "nested" / "quiz.sqlite3"
    db = await Database.open(path)
    try:
        assert path.exists()
        pragmas = {}
        for name in ("journal_mode", "synchronous", "foreign_keys", "busy_timeout"):
            row = await db.fetch_one(f"PRAGMA {name}")
            assert row is not None
            pragmas[name] = row[0]
        assert pragmas == {
            "journal_mode": "wal",
            "synchronous": 1,
            "foreign_keys": 1,
            "busy_timeout": 5000,
        }
    finally:
        await db.close()


async def test_migrations_are_recorded_and_applied_once(db_path: Path) -> None:
    """Every bundled migration is applied and recorded once, and reopening applies nothing."""
    store = await SqliteStore.open(db_path)
    await store.close()
    store = await SqliteStore.open(db_path)
    await store.close()
    raw = Raw("sqlite", str(db_path))
    recorded = await raw.peek("SELECT version, name FROM schema_migrations ORDER BY version")
    assert recorded == [(m.version, m.name) for m in bundled_migrations()]
    tables = {row[0] for row in await raw.peek("SELECT name FROM sqlite_master")}
    assert {"chats", "users", "asks", "answers", "period_scores", "effects"} <= tables


async def test_failing_migration_leaves_no_trace(db_path: Path) -> None:
    """A migration that fails half-way is rolled back whole, its record included."""
    broken = Migration(
        1, "broken", "CREATE TABLE half (id INTEGER);\nINSERT INTO nowhere VALUES (1);"
    )
    with pytest.raises(sqlite3.OperationalError):
        await Database.open(db_path, [broken])
    raw = Raw("sqlite", str(db_path))
    assert "half" not in {row[0] for row in await raw.peek("SELECT name FROM sqlite_master")}
    assert await raw.count("schema_migrations") == 0


async def test_database_from_newer_version_is_refused_unchanged(db_path: Path) -> None:
    """A schema version above the code's is refused with a clear message and not modified."""
    store = await SqliteStore.open(db_path)
    await store.close()
    newest = bundled_migrations()[-1].version
    with closing(sqlite3.connect(db_path)) as conn, conn:
        conn.execute(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'future', 0)",
            (newest + 1,),
        )
    before = await asyncio.to_thread(db_path.read_bytes)
    with pytest.raises(SchemaTooNewError, match=f"schema version {newest + 1}.*newer release"):
        await SqliteStore.open(db_path)
    assert await asyncio.to_thread(db_path.read_bytes) == before


def test_bundled_migrations_are_numbered_without_gaps() -> None:
    """Migration files are numbered 1..n, so their order is never in doubt."""
    versions = [m.version for m in bundled_migrations()]
    assert versions == list(range(1, len(versions) + 1))


async def test_effects_migration_backfills_the_origin_of_existing_asks(db_path: Path) -> None:
    """Asks of a round become 'round', asks of a daily push 'daily', the others stay 'quiz'."""
    old = await Database.open(db_path, bundled_migrations()[:4])
    await old.close()
    with closing(sqlite3.connect(db_path)) as conn, conn:
        conn.execute("INSERT INTO chats (id, kind, created_at) VALUES (-1, 'group', 0)")
        conn.execute(
            "INSERT INTO rounds (id, chat_id, started_by, size, started_at) VALUES (1, -1, 1, 3, 0)"
        )
        for ask_id, round_id in ((1, None), (2, 1), (3, None)):
            conn.execute(
                "INSERT INTO asks (id, chat_id, deck_id, question_id, pass_no, option_order, "
                "asked_at, round_id) VALUES (?, -1, 'deck', 'q', 1, '0,1', 0, ?)",
                (ask_id, round_id),
            )
        conn.execute(
            "INSERT INTO daily_pushes (chat_id, local_day, slot_at, status, ask_id, created_at) "
            "VALUES (-1, '2026-12-01', 0, 'sent', 3, 0)"
        )
    store = await SqliteStore.open(db_path)
    try:
        origins = [(await store.get_ask(ask_id)) for ask_id in (1, 2, 3)]
        assert [a.origin if a else None for a in origins] == [
            AskOrigin.QUIZ,
            AskOrigin.ROUND,
            AskOrigin.DAILY,
        ]
    finally:
        await store.close()


async def test_outbox_migrations_carry_pending_pushes_and_post_times_over(db_path: Path) -> None:
    """0011 turns a pending daily push into a daily effect; 0012 dates each posted question
    from its sent question effect or push; an unposted question stays undated."""
    old = await Database.open(db_path, bundled_migrations()[:10])
    await old.close()
    with closing(sqlite3.connect(db_path)) as conn, conn:
        conn.execute("INSERT INTO chats (id, kind, created_at) VALUES (-1, 'group', 0)")
        for ask_id, message_id in ((1, 501), (2, 502), (3, None)):
            conn.execute(
                "INSERT INTO asks (id, chat_id, deck_id, question_id, pass_no, option_order, "
                "asked_at, message_id) VALUES (?, -1, 'deck', 'q', 1, '0,1', 0, ?)",
                (ask_id, message_id),
            )
        conn.execute(
            "INSERT INTO effects (chat_id, kind, ask_id, status, not_before, created_at, done_at)"
            " VALUES (-1, 'question', 1, 'done', 0, 0, 7000)"
        )
        conn.execute(
            "INSERT INTO daily_pushes (chat_id, local_day, slot_at, status, ask_id, created_at, "
            "done_at) VALUES (-1, '2026-12-01', 0, 'sent', 2, 0, 9000)"
        )
        conn.execute(
            "INSERT INTO daily_pushes (chat_id, local_day, slot_at, status, created_at) "
            "VALUES (-1, '2026-12-02', 86400000, 'pending', 86400000)"
        )
    store = await SqliteStore.open(db_path)
    await store.close()
    raw = Raw("sqlite", str(db_path))
    posted = await raw.peek("SELECT id, posted_at FROM asks ORDER BY id")
    assert [tuple(row) for row in posted] == [(1, 7000), (2, 9000), (3, None)]
    owed = await raw.peek(
        "SELECT kind, payload, bulk, dedupe_key, status FROM effects WHERE kind = 'daily'"
    )
    assert [tuple(row) for row in owed] == [
        ("daily", '{"day": "2026-12-02"}', 1, "daily:-1:2026-12-02", "pending")
    ]


async def test_an_exception_inside_a_transaction_writes_nothing(store: SqlStore, raw: Raw) -> None:
    """Everything written in `async with store.transaction()` is rolled back when it raises."""
    await store.upsert_chat(CHAT, NOW)

    async def change_of_mind() -> None:
        async with store.transaction() as writes:
            await writes.upsert_chat(ChatRef(-5, ChatKind.GROUP), NOW)
            ask = await writes.create_ask(draft(CHAT.id, NOW))
            await writes.start_round(CHAT.id, None, 1, 3, NOW)
            await writes.enqueue(NewEffect(CHAT.id, "question", ask_id=ask.id), NOW)
            assert await writes.close_ask(ask.id, NOW)
            raise LookupError("the use case changed its mind")

    with pytest.raises(LookupError):
        await change_of_mind()
    for table in ("asks", "rounds", "effects"):
        assert await raw.count(table) == 0, table
    assert await store.chat(-5) is None
    # The lock is free again and the connection out of the transaction.
    round_ = await store.running_round(CHAT.id)
    async with store.transaction() as writes:
        assert round_ is None
        started = await writes.start_round(CHAT.id, None, 1, 3, NOW)
    assert started is not None
    assert await store.running_round(CHAT.id) == started


async def test_writes_in_one_transaction_commit_together(store: SqlStore, raw: Raw) -> None:
    """A round, its ask and a closed one are all visible after the block, none before."""
    await store.upsert_chat(CHAT, NOW)
    async with store.transaction() as writes:
        started = await writes.start_round(CHAT.id, 7, 1, 3, NOW)
        assert started is not None
        await writes.create_ask(draft(CHAT.id, NOW, round_id=started.id, origin=AskOrigin.ROUND))
        assert await writes.round_asked(started.id) == 1
        assert await raw.count("rounds") == 0  # another connection sees nothing yet
        assert await writes.end_round(started.id, RoundEnd.FINISHED, NOW + timedelta(minutes=1))
    assert await raw.count("rounds", "end_reason = 'finished'") == 1
    assert await store.round_asked(started.id) == 1


async def test_a_store_write_inside_a_transaction_raises_instead_of_hanging(
    store: SqlStore,
) -> None:
    """Awaiting a store method that writes inside the block is refused, not a deadlock."""
    await store.upsert_chat(CHAT, NOW)
    # SQLite: the block holds the one connection's write lock. PostgreSQL: the write would
    # wait on another pooled connection for the block's own row locks.
    with pytest.raises(RuntimeError, match=r"write lock|inside a transaction"):
        async with store.transaction(), asyncio.timeout(2):
            await store.set_deck(CHAT.id, "other")
    settings = await store.chat(CHAT.id)
    assert settings is not None
    assert settings.deck_id is None


async def test_concurrent_transactions_do_not_interleave(store: SqlStore) -> None:
    """Transactions of many coroutines run as if one after another: each one's round has
    ended when the next starts one (SQLite: one connection; PostgreSQL: the round's lock)."""
    await store.upsert_chat(CHAT, NOW)

    async def start_and_stop(user: int) -> bool:
        async with store.transaction() as writes:
            started = await writes.start_round(CHAT.id, None, user, 3, NOW)
            await asyncio.sleep(0)
            if started is None:
                return False
            return await writes.end_round(started.id, RoundEnd.STOPPED, NOW)

    assert all(await asyncio.gather(*(start_and_stop(user) for user in range(20))))
    assert await store.running_round(CHAT.id) is None
