"""Helpers for storage tests: players, times, zone bounds, raw reads and a chat that plays."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from random import Random
from zoneinfo import ZoneInfo

from bot.core.model import Ask, AskDraft, AskOrigin, ChatKind, ChatRef, PeriodKind, Player
from bot.core.periods import period_keys, period_range
from bot.core.ports import PeriodBounds
from storage.sqlite import SqliteStore

UTC_ZONE = ZoneInfo("UTC")
ALICE = Player(1, "Alice", "Liddell", "alice")
BOB = Player(2, "Bob")
CAROL = Player(3, "Carol", "Ng")
DAVE = Player(4, "Dave", None, "dave")


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


def zone_bounds(zone: ZoneInfo) -> PeriodBounds:
    """The periods of `zone`, as the core passes them to storage."""

    def bounds(kind: PeriodKind, moment: datetime) -> tuple[datetime, datetime]:
        return period_range(kind, moment, zone)

    return bounds


def peek(path: Path, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """Rows read through a connection of their own: what is committed in the file."""
    with closing(sqlite3.connect(path)) as conn:
        return [tuple(row) for row in conn.execute(sql, params)]


def count(path: Path, table: str, where: str = "1", params: tuple[object, ...] = ()) -> int:
    [(n,)] = peek(path, f"SELECT count(*) FROM {table} WHERE {where}", params)
    assert isinstance(n, int)
    return n


def chat_tables(path: Path) -> dict[str, str]:
    """Every table with a foreign key to chats(id), with the column that holds it."""
    found = {}
    for (table,) in peek(path, "SELECT name FROM sqlite_master WHERE type = 'table'"):
        for fk in peek(path, f"PRAGMA foreign_key_list({table})"):
            if fk[2] == "chats":
                found[str(table)] = str(fk[3])
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


async def ask_in(store: SqliteStore, chat: ChatRef, question: AskDraft) -> Ask:
    """The chat (created if needed) gets the ask, in one transaction."""
    async with store.transaction() as writes:
        await writes.upsert_chat(chat, question.asked_at)
        return await writes.create_ask(question)


@dataclass
class Boards:
    """A store on a file, and a way to have players answer in a chat."""

    store: SqliteStore
    path: Path

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

    def snapshot(self, chat_id: int) -> list[tuple[object, ...]]:
        """Every period_scores row of the chat, in key order."""
        return peek(
            self.path,
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
