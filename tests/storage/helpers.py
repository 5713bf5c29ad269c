"""Helpers for storage tests: players, times, zone bounds, raw reads and a chat that plays."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from random import Random
from zoneinfo import ZoneInfo

import asyncpg
import pytest

from bot.core.model import (
    Ask,
    AskDraft,
    AskOrigin,
    ChatKind,
    ChatRef,
    Effect,
    PeriodKind,
    Player,
    Push,
    SlotDecision,
)
from bot.core.ports import PeriodBounds
from bot.core.rules.periods import period_keys, period_range
from storage.postgres.store import PostgresStore
from storage.sql.conn import postgres_text
from storage.sql.store import SqlStore
from storage.sqlite import SqliteStore

UTC_ZONE = ZoneInfo("UTC")
ALICE = Player(1, "Alice", "Liddell", "alice")
BOB = Player(2, "Bob")
CAROL = Player(3, "Carol", "Ng")
DAVE = Player(4, "Dave", None, "dave")
# What either engine's error says when a row points at nothing: SQLite's "FOREIGN KEY
# constraint failed", PostgreSQL's "violates foreign key constraint".
FOREIGN_KEY = "(?i)foreign key constraint"
# For a test about PostgreSQL only (one about SQLite only takes `db_path`, not `backend`).
postgres_only = pytest.mark.parametrize("backend", ["postgres"], indirect=True)
# The SQL text of `Raw.foreign_key_violations` on PostgreSQL: each foreign key with its
# columns and the ones they refer to, in key order.
_PG_FOREIGN_KEYS = """
SELECT c.conname, c.conrelid::regclass::text, c.confrelid::regclass::text,
       ARRAY(SELECT quote_ident(a.attname) FROM unnest(c.conkey) WITH ORDINALITY AS k(n, i)
             JOIN pg_attribute AS a ON a.attrelid = c.conrelid AND a.attnum = k.n
             ORDER BY k.i),
       ARRAY(SELECT quote_ident(a.attname) FROM unnest(c.confkey) WITH ORDINALITY AS k(n, i)
             JOIN pg_attribute AS a ON a.attrelid = c.confrelid AND a.attnum = k.n
             ORDER BY k.i)
FROM pg_constraint AS c WHERE c.contype = 'f' ORDER BY c.conname
"""


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


def zone_bounds(zone: ZoneInfo) -> PeriodBounds:
    """The periods of `zone`, as the core passes them to storage."""

    def bounds(kind: PeriodKind, moment: datetime) -> tuple[datetime, datetime]:
        return period_range(kind, moment, zone)

    return bounds


async def open_store(backend: str, database: str) -> SqlStore:
    """The store of `backend` on `database` (a SQLite file's path or a PostgreSQL URL)."""
    if backend == "sqlite":
        return await SqliteStore.open(database)
    return await PostgresStore.open(database, pool_size=4)


@dataclass
class Raw:
    """The database behind a store, through a connection of its own: what is committed.

    SQL is written in SQLite's dialect with its `?` parameters (mapped to `$N` for
    PostgreSQL); keep to what both engines read alike. On PostgreSQL one connection outside
    any transaction serves every call (each statement sees what is committed when it runs);
    `close()` closes it. On SQLite each call opens the file afresh.
    """

    backend: str
    database: str
    _pg: asyncpg.Connection | None = field(default=None, init=False, repr=False)

    @property
    def integrity_error(self) -> type[Exception]:
        """What the engine raises for a row its constraints refuse."""
        if self.backend == "sqlite":
            return sqlite3.IntegrityError
        return asyncpg.IntegrityConstraintViolationError

    async def _conn(self) -> asyncpg.Connection:
        if self._pg is None:
            self._pg = await asyncpg.connect(self.database)
        return self._pg

    async def close(self) -> None:
        conn, self._pg = self._pg, None
        if conn is not None:
            await conn.close()

    async def peek(self, sql: str, params: Sequence[object] = ()) -> list[tuple[object, ...]]:
        """The rows of a query, as tuples."""
        if self.backend == "sqlite":
            with closing(sqlite3.connect(self.database)) as db:
                return [tuple(row) for row in db.execute(sql, tuple(params))]
        pg = await self._conn()
        return [tuple(row) for row in await pg.fetch(postgres_text(sql), *params)]

    async def count(self, table: str, where: str = "TRUE", params: Sequence[object] = ()) -> int:
        [(n,)] = await self.peek(f"SELECT count(*) FROM {table} WHERE {where}", params)
        assert isinstance(n, int)
        return n

    async def execute(self, sql: str, params: Sequence[object] = ()) -> None:
        """One statement written around the store, committed at once."""
        if self.backend == "sqlite":
            await self.executemany(sql, [params])
            return
        pg = await self._conn()
        await pg.execute(postgres_text(sql), *params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        """One statement for each of `rows`, committed together."""
        batch = [tuple(row) for row in rows]
        if self.backend == "sqlite":
            with closing(sqlite3.connect(self.database)) as db, db:
                db.execute("PRAGMA foreign_keys = ON")
                db.executemany(sql, batch)
            return
        pg = await self._conn()
        await pg.executemany(postgres_text(sql), batch)

    async def chat_tables(self) -> dict[str, str]:
        """Every table with a foreign key to chats(id), with the column that holds it."""
        if self.backend == "postgres":
            found = await self.peek(
                "SELECT c.conrelid::regclass::text, a.attname FROM pg_constraint AS c "
                "JOIN pg_attribute AS a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey) "
                "WHERE c.contype = 'f' AND c.confrelid = 'chats'::regclass"
            )
            return {str(table): str(column) for table, column in found}
        tables = {}
        for (table,) in await self.peek("SELECT name FROM sqlite_master WHERE type = 'table'"):
            for fk in await self.peek(f"PRAGMA foreign_key_list({table})"):
                if fk[2] == "chats":
                    tables[str(table)] = str(fk[3])
        return tables

    async def foreign_key_violations(self) -> list[tuple[object, ...]]:
        """Rows whose foreign key points at nothing (none while the keys are kept): SQLite's
        `PRAGMA foreign_key_check`; on PostgreSQL, per key, the count of such rows."""
        if self.backend == "sqlite":
            return await self.peek("PRAGMA foreign_key_check")
        found: list[tuple[object, ...]] = []
        for name, child, parent, columns, refers in await self.peek(_PG_FOREIGN_KEYS):
            assert isinstance(columns, list)
            assert isinstance(refers, list)
            present = " AND ".join(f"c.{col} IS NOT NULL" for col in columns)
            match = " AND ".join(f"p.{r} = c.{col}" for col, r in zip(columns, refers, strict=True))
            n = await self.count(
                f"{child} AS c",
                f"{present} AND NOT EXISTS (SELECT 1 FROM {parent} AS p WHERE {match})",
            )
            if n:
                found.append((child, n, parent, name))
        return found


def draft(
    chat_id: int,
    at: datetime,
    question_id: str = "q1",
    *,
    thread_id: int | None = None,
    closes_at: datetime | None = None,
    origin: AskOrigin = AskOrigin.QUIZ,
    round_id: int | None = None,
    pass_no: int = 1,
) -> AskDraft:
    return AskDraft(
        chat_id=chat_id,
        thread_id=thread_id,
        deck_id="deck",
        question_id=question_id,
        pass_no=pass_no,
        option_order=(2, 0, 3, 1),
        asked_at=at,
        closes_at=closes_at,
        origin=origin,
        round_id=round_id,
    )


async def ask_in(store: SqlStore, chat: ChatRef, question: AskDraft) -> Ask:
    """The chat (created if needed) gets the ask, in one transaction."""
    async with store.transaction() as writes:
        await writes.upsert_chat(chat, question.asked_at)
        return await writes.create_ask(question)


@dataclass
class Boards:
    """A store, the database behind it, and a way to have players answer in a chat."""

    store: SqlStore
    raw: Raw

    async def play(
        self,
        chat_id: int,
        at: datetime,
        results: Mapping[Player, bool],
        *,
        zone: ZoneInfo = UTC_ZONE,
        kind: ChatKind = ChatKind.SUPERGROUP,
    ) -> Ask:
        """Ask one question in the chat at `at`; each player answers it then, right or wrong."""
        chat = ChatRef(chat_id, kind, "Study")
        ask = await ask_in(self.store, chat, draft(chat_id, at, f"q{at.timestamp()}"))
        for player, correct in results.items():
            answer = await self.store.record_answer(
                ask, player, 0 if correct else 1, correct, at, periods=period_keys(at, zone)
            )
            assert answer is not None
        return ask

    async def snapshot(self, chat_id: int) -> list[tuple[object, ...]]:
        """Every period_scores row of the chat, in key order."""
        return await self.raw.peek(
            "SELECT period, period_start, user_id, correct, answered, reached_at, streak, "
            "best_streak FROM period_scores WHERE chat_id = ? "
            "ORDER BY period, period_start, user_id",
            (chat_id,),
        )

    async def users_on(self, chat_id: int, kind: PeriodKind, start: datetime) -> list[int]:
        """The user ids on a board, best first."""
        return [row.player.id for row in await self.store.top(chat_id, kind, start, 100)]

    async def random_history(
        self, chat_id: int, zone: ZoneInfo, seed: int, *, start: datetime | None = None
    ) -> None:
        """Sixty questions over about three months, each answered by some of eight players."""
        rng = Random(seed)
        players = [Player(10 + i, f"P{i}") for i in range(8)]
        at = start or utc(2026, 9, 20, 6)
        for _ in range(60):
            at += timedelta(hours=rng.randint(1, 60))
            chosen = rng.sample(players, rng.randint(1, 8))
            await self.play(chat_id, at, {p: rng.random() < 0.7 for p in chosen}, zone=zone)


async def postgres_scans(raw: Raw, sql: str, params: Sequence[object]) -> dict[str, list[str]]:
    """What PostgreSQL's plans for `sql` read, the plan made for these values ("custom") and
    the one made for any ("generic", which a prepared statement may switch to): per plan, the
    index of each index scan and `Seq Scan on <table>` for a table read whole."""
    found: dict[str, list[str]] = {}
    for mode in ("custom", "generic"):
        await raw.execute(f"SET plan_cache_mode = force_{mode}_plan")
        [(text,)] = await raw.peek(f"EXPLAIN (FORMAT JSON) {sql}", params)
        assert isinstance(text, str)
        scans: list[str] = []
        nodes = [json.loads(text)[0]["Plan"]]
        while nodes:
            node = nodes.pop()
            nodes.extend(node.get("Plans", []))
            if "Index Name" in node:
                scans.append(node["Index Name"])
            elif node["Node Type"] == "Seq Scan":
                scans.append(f"Seq Scan on {node['Relation Name']}")
        found[mode] = scans
    await raw.execute("RESET plan_cache_mode")
    return found


async def record_slots(store: SqlStore, decisions: Sequence[SlotDecision], now: datetime) -> None:
    """The ledger rows and the schedules' next slots, in a transaction of their own."""
    async with store.transaction() as writes:
        await writes.record_slots(decisions, now)


async def effect_sent(store: SqlStore, effect: Effect, now: datetime, message_id: int) -> None:
    """The effect done, as a sent question settles: its ask gets `message_id`."""
    async with store.transaction() as writes:
        await writes.effect_done(effect, now)
        if effect.ask_id is not None:
            await writes.set_ask_message(effect.ask_id, message_id, now)


async def push_sent(
    store: SqlStore, push: Push, ask_id: int, message_id: int, now: datetime
) -> None:
    """The push's question is out (its ask gets the message id, its ledger row is closed)."""
    async with store.transaction() as writes:
        await writes.mark_push_sent(push.chat_id, push.local_day, ask_id, message_id, now)


ASKED_AT = utc(2026, 12, 2, 9, 30)
GROUP_CHAT = ChatRef(-100123, ChatKind.SUPERGROUP, "Study group")


async def group_ask(store: SqlStore, question_id: str = "q1", pass_no: int = 1) -> Ask:
    """A question asked in forum topic 7 of GROUP_CHAT at ASKED_AT, open for 5 minutes."""
    question = draft(
        GROUP_CHAT.id,
        ASKED_AT,
        question_id,
        thread_id=7,
        closes_at=ASKED_AT + timedelta(minutes=5),
        pass_no=pass_no,
    )
    return await ask_in(store, GROUP_CHAT, question)
