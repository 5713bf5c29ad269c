"""Deleting one user's data (`/forgetme`)."""

from __future__ import annotations

from collections.abc import Mapping

from bot.core.ports import PeriodBounds
from storage.sql.base import StoreBase
from storage.sql.boards import recount

# Their rows in every table that keys data by user, the outbox rows that name them first.
_DELETES = (
    "DELETE FROM effects WHERE user_id = ?1",
    "DELETE FROM effects WHERE report_id IN (SELECT id FROM reports WHERE user_id = ?1)",
    "DELETE FROM effects WHERE exam_id IN (SELECT id FROM exams WHERE user_id = ?1)",
    "DELETE FROM exam_questions WHERE exam_id IN (SELECT id FROM exams WHERE user_id = ?1)",
    "DELETE FROM exams WHERE user_id = ?1",
    "DELETE FROM reports WHERE user_id = ?1",
    "DELETE FROM selections WHERE user_id = ?1",
    "DELETE FROM answers WHERE user_id = ?1",
    "DELETE FROM cards WHERE user_id = ?1",
    "DELETE FROM learning_log WHERE user_id = ?1",
    "DELETE FROM memory_parameters WHERE user_id = ?1",
    "DELETE FROM users WHERE id = ?1",
)


class ForgetQueries(StoreBase):
    async def answered_chats(self, user_id: int) -> list[int]:
        rows = await self._db.fetch_all(
            "SELECT DISTINCT chat_id FROM answers WHERE user_id = ?", (user_id,)
        )
        return [int(row["chat_id"]) for row in rows]

    async def forget_user(self, user_id: int, bounds: Mapping[int, PeriodBounds]) -> None:
        await self.flush_cards()  # none may be written back after the deletion
        async with self._db.transaction() as conn:
            for sql in _DELETES:
                await conn.execute(sql, (user_id,))
            for chat_id, chat_bounds in bounds.items():
                await recount(conn, chat_id, chat_bounds)
