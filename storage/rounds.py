"""Rounds: `/quiz N`, one running per chat (a partial UNIQUE index makes sure)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime

import aiosqlite

from bot.core.domain import Player
from storage.db import Database
from storage.repository import from_ms, to_ms


@dataclass(frozen=True)
class Round:
    id: int
    chat_id: int
    thread_id: int | None
    started_by: int
    size: int
    started_at: datetime
    ended_at: datetime | None


@dataclass(frozen=True)
class RoundScore:
    player: Player
    correct: int
    answered: int
    # Sum of (answered_at - asked_at): the faster player wins a tie on correct answers.
    total_ms: int


@dataclass(frozen=True)
class RoundQuestion:
    question_id: str
    deck_id: str
    asked_at: datetime
    correct: bool | None  # None: not answered


_COLUMNS = "id, chat_id, thread_id, started_by, size, started_at, ended_at"


def _round(row: aiosqlite.Row) -> Round:
    ended = None if row[6] is None else from_ms(row[6])
    return Round(row[0], row[1], row[2], row[3], row[4], from_ms(row[5]), ended)


class RoundRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def start(
        self, chat_id: int, thread_id: int | None, started_by: int, size: int, now: datetime
    ) -> Round | None:
        """A new running round, or None when the chat has one running already."""
        try:
            async with self.db.transaction() as conn:
                cursor = await conn.execute(
                    "INSERT INTO rounds (chat_id, thread_id, started_by, size, started_at) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (chat_id, thread_id, started_by, size, to_ms(now)),
                )
                round_id = cursor.lastrowid
        except sqlite3.IntegrityError:
            return None
        assert round_id is not None
        return await self.get(round_id)

    async def get(self, round_id: int) -> Round | None:
        row = await self.db.fetch_one(f"SELECT {_COLUMNS} FROM rounds WHERE id = ?", (round_id,))
        return None if row is None else _round(row)

    async def running(self, chat_id: int) -> Round | None:
        row = await self.db.fetch_one(
            f"SELECT {_COLUMNS} FROM rounds WHERE chat_id = ? AND ended_at IS NULL", (chat_id,)
        )
        return None if row is None else _round(row)

    async def end(self, round_id: int, reason: str, now: datetime) -> bool:
        """End the round; False when it had ended already."""
        async with self.db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE rounds SET ended_at = ?, end_reason = ? WHERE id = ? AND ended_at IS NULL",
                (to_ms(now), reason, round_id),
            )
            return cursor.rowcount == 1

    async def asked(self, round_id: int) -> int:
        row = await self.db.fetch_one("SELECT count(*) FROM asks WHERE round_id = ?", (round_id,))
        return int(row[0]) if row else 0

    async def questions(self, round_id: int, user_id: int) -> list[RoundQuestion]:
        """The round's questions in order, with how `user_id` answered each."""
        rows = await self.db.fetch_all(
            "SELECT k.question_id, k.deck_id, k.asked_at, a.correct FROM asks AS k "
            "LEFT JOIN answers AS a ON a.ask_id = k.id AND a.user_id = ? "
            "WHERE k.round_id = ? ORDER BY k.id",
            (user_id, round_id),
        )
        return [
            RoundQuestion(r[0], r[1], from_ms(r[2]), None if r[3] is None else bool(r[3]))
            for r in rows
        ]

    async def scores(self, round_id: int, limit: int = 10) -> list[RoundScore]:
        rows = await self.db.fetch_all(
            "SELECT u.id, u.first_name, u.last_name, u.username, sum(a.correct), count(*), "
            "sum(a.answered_at - k.asked_at) AS total FROM asks AS k "
            "JOIN answers AS a ON a.ask_id = k.id JOIN users AS u ON u.id = a.user_id "
            "WHERE k.round_id = ? GROUP BY u.id ORDER BY sum(a.correct) DESC, total, u.id "
            "LIMIT ?",
            (round_id, limit),
        )
        return [RoundScore(Player(r[0], r[1], r[2], r[3]), r[4], r[5], r[6]) for r in rows]

    async def last_answer_at(self, round_id: int) -> datetime | None:
        row = await self.db.fetch_one(
            "SELECT max(a.answered_at) FROM answers AS a JOIN asks AS k ON k.id = a.ask_id "
            "WHERE k.round_id = ?",
            (round_id,),
        )
        return None if row is None or row[0] is None else from_ms(row[0])
