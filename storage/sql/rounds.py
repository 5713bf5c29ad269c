"""Rounds: `/quiz N`, one running per chat (a partial UNIQUE index makes sure)."""

from __future__ import annotations

from datetime import datetime

from bot.core.model import Round, RoundQuestion, RoundScore
from storage.sql import rows
from storage.sql.base import StoreBase
from storage.sql.rows import from_ms, optional_ms
from storage.sql.writes import ROUND_ASKED


class RoundQueries(StoreBase):
    async def get_round(self, round_id: int) -> Round | None:
        row = await self._db.fetch_one(
            f"SELECT {rows.ROUND_COLUMNS} FROM rounds WHERE id = ?", (round_id,)
        )
        return None if row is None else rows.round_(row)

    async def running_round(self, chat_id: int) -> Round | None:
        row = await self._db.fetch_one(
            f"SELECT {rows.ROUND_COLUMNS} FROM rounds WHERE chat_id = ? AND ended_at IS NULL",
            (chat_id,),
        )
        return None if row is None else rows.round_(row)

    async def round_asked(self, round_id: int) -> int:
        """How many questions the round has asked."""
        row = await self._db.fetch_one(ROUND_ASKED, (round_id,))
        return int(row["n"]) if row else 0

    async def round_questions(self, round_id: int, user_id: int) -> list[RoundQuestion]:
        """The round's questions in order, with how `user_id` answered each."""
        found = await self._db.fetch_all(
            "SELECT k.question_id, k.deck_id, k.asked_at, a.correct FROM asks AS k "
            "LEFT JOIN answers AS a ON a.ask_id = k.id AND a.user_id = ? "
            "WHERE k.round_id = ? ORDER BY k.id",
            (user_id, round_id),
        )
        return [
            RoundQuestion(
                question_id=row["question_id"],
                deck_id=row["deck_id"],
                asked_at=from_ms(row["asked_at"]),
                correct=None if row["correct"] is None else bool(row["correct"]),
            )
            for row in found
        ]

    async def round_scores(self, round_id: int, limit: int) -> list[RoundScore]:
        """Most correct answers first, then the least total time to answer."""
        found = await self._db.fetch_all(
            f"SELECT {rows.PLAYER_COLUMNS}, sum(a.correct) AS correct, count(*) AS answered, "
            "sum(a.answered_at - k.asked_at) AS total_ms FROM asks AS k "
            "JOIN answers AS a ON a.ask_id = k.id JOIN users AS u ON u.id = a.user_id "
            "WHERE k.round_id = ? GROUP BY u.id ORDER BY sum(a.correct) DESC, total_ms, u.id "
            "LIMIT ?",
            (round_id, limit),
        )
        return [
            # PostgreSQL sums bigints into numeric (Decimal): the model holds ints.
            RoundScore(
                rows.player(row), int(row["correct"]), int(row["answered"]), int(row["total_ms"])
            )
            for row in found
        ]

    async def round_last_answer_at(self, round_id: int) -> datetime | None:
        row = await self._db.fetch_one(
            "SELECT max(a.answered_at) AS at FROM answers AS a JOIN asks AS k ON k.id = a.ask_id "
            "WHERE k.round_id = ?",
            (round_id,),
        )
        return None if row is None else optional_ms(row["at"])
