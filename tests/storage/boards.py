"""Helpers for leaderboard tests: a chat where players answer questions at given times."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from random import Random
from typing import Any
from zoneinfo import ZoneInfo

from bot.core.domain import Ask, ChatKind, ChatRef, Player
from bot.core.periods import PeriodKind, period_keys
from storage.db import Database
from storage.leaderboards import LeaderboardRepository
from storage.repository import Repository

UTC_ZONE = ZoneInfo("UTC")
ALICE = Player(1, "Alice", "Liddell", "alice")
BOB = Player(2, "Bob")
CAROL = Player(3, "Carol", "Ng")
DAVE = Player(4, "Dave", None, "dave")


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


@dataclass
class Boards:
    """A database with the answer repository and the leaderboard repository on it."""

    db: Database
    repo: Repository
    boards: LeaderboardRepository

    async def play(
        self,
        chat_id: int,
        at: datetime,
        results: Mapping[Player, bool],
        *,
        zone: ZoneInfo = UTC_ZONE,
    ) -> Ask:
        """Ask one question in the chat at `at`; each player answers it then, right or wrong."""
        await self.repo.upsert_chat(ChatRef(chat_id, ChatKind.SUPERGROUP, "Study"), at)
        ask = await self.repo.create_ask(
            chat_id=chat_id,
            thread_id=None,
            deck_id="deck",
            question_id=f"q{at.timestamp()}",
            pass_no=1,
            option_order=(0, 1, 2, 3),
            asked_at=at,
            closes_at=None,
        )
        for player, correct in results.items():
            position = 0 if correct else 1
            keys = period_keys(at, zone)
            await self.repo.record_answer(
                ask, player, position, correct, at, close=False, periods=keys
            )
        return ask

    async def snapshot(self, chat_id: int) -> list[tuple[Any, ...]]:
        """Every period_scores row of the chat, in key order."""
        rows = await self.db.fetch_all(
            "SELECT period, period_start, user_id, correct, answered, reached_at, streak, "
            "best_streak FROM period_scores WHERE chat_id = ? "
            "ORDER BY period, period_start, user_id",
            (chat_id,),
        )
        return [tuple(row) for row in rows]

    async def users_on(self, chat_id: int, kind: PeriodKind, start: datetime) -> list[int]:
        """The user ids on a board, best first."""
        board = await self.boards.top(chat_id, kind, start)
        return [entry.user_id for entry in board.entries]

    async def random_history(self, chat_id: int, zone: ZoneInfo, seed: int) -> None:
        """Sixty questions over about three months, each answered by some of eight players."""
        rng = Random(seed)
        players = [Player(10 + i, f"P{i}") for i in range(8)]
        at = utc(2026, 9, 20, 6)
        for _ in range(60):
            at += timedelta(hours=rng.randint(1, 60))
            chosen = rng.sample(players, rng.randint(1, 8))
            await self.play(chat_id, at, {p: rng.random() < 0.7 for p in chosen}, zone=zone)
