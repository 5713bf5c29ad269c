"""Mock exams: reads, and the learner's presses (each committed on return)."""

from __future__ import annotations

from datetime import datetime

from bot.core.model import Exam, ExamItem, from_mask
from storage.sql.base import StoreBase
from storage.sql.rows import to_ms
from storage.sql.writes.exams import EXAM_COLUMNS, EXAM_ITEMS, SET_MESSAGE, exam_of, item_of

_GET = f"SELECT {EXAM_COLUMNS} FROM exams WHERE id = ?"
# Served by the partial UNIQUE index exams_one_open_per_user.
_OPEN = f"SELECT {EXAM_COLUMNS} FROM exams WHERE user_id = ? AND submitted_at IS NULL"
# Served by the partial index exams_open_by_deadline.
_DUE = (
    f"SELECT {EXAM_COLUMNS} FROM exams WHERE submitted_at IS NULL AND deadline <= ? "
    "ORDER BY deadline LIMIT ?"
)
# Every press writes only while the exam is open and its time has not run out.
_STILL_OPEN = "EXISTS (SELECT 1 FROM exams WHERE id = ? AND submitted_at IS NULL AND deadline > ?)"
_CHOOSE = (
    "UPDATE exam_questions SET chosen = ?, answered_at = ? "
    f"WHERE exam_id = ? AND seq = ? AND {_STILL_OPEN}"
)
# A "choose N" question: the letter turns on, or off (XOR, as both engines read it); its
# answer (first position and time) is set when exactly N are picked, and cleared otherwise.
_PICK = (
    "UPDATE exam_questions SET "
    "picked = (coalesce(picked, 0) | ?1) - (coalesce(picked, 0) & ?1) "
    "WHERE exam_id = ?2 AND seq = ?3 AND picks > 1 AND EXISTS (SELECT 1 FROM exams "
    "WHERE id = ?2 AND submitted_at IS NULL AND deadline > ?4) "
    "RETURNING picks, picked"
)
_PICKED_ANSWER = (
    "UPDATE exam_questions SET chosen = ?, answered_at = ? WHERE exam_id = ? AND seq = ?"
)
_FLAG = (
    "UPDATE exam_questions SET flagged = 1 - flagged "
    f"WHERE exam_id = ? AND seq = ? AND {_STILL_OPEN}"
)
_PAGE = (
    "UPDATE exams SET current = ? "
    "WHERE id = ? AND submitted_at IS NULL AND deadline > ? AND ? BETWEEN 0 AND size"
)
# Answered anywhere: stored answers (quizzes, rounds, daily questions) and the learning log
# (reviews and exams too).
_ANSWERED = (
    "SELECT a.question_id FROM answers AS ans JOIN asks AS a ON a.id = ans.ask_id "
    "WHERE ans.user_id = ? AND a.deck_id = ? "
    "UNION SELECT question_id FROM learning_log WHERE user_id = ? AND deck_id = ?"
)


class ExamQueries(StoreBase):
    async def get_exam(self, exam_id: int) -> Exam | None:
        row = await self._db.fetch_one(_GET, (exam_id,))
        return None if row is None else exam_of(row)

    async def open_exam(self, user_id: int) -> Exam | None:
        row = await self._db.fetch_one(_OPEN, (user_id,))
        return None if row is None else exam_of(row)

    async def exam_items(self, exam_id: int) -> list[ExamItem]:
        return [item_of(row) for row in await self._db.fetch_all(EXAM_ITEMS, (exam_id,))]

    async def due_exams(self, now: datetime, limit: int) -> list[Exam]:
        return [exam_of(row) for row in await self._db.fetch_all(_DUE, (to_ms(now), limit))]

    async def answer_exam(self, exam_id: int, index: int, position: int, now: datetime) -> bool:
        at = to_ms(now)
        return await self._press(
            _CHOOSE, (position, at, exam_id, index, exam_id, at), exam_id, index
        )

    async def pick_exam(self, exam_id: int, index: int, position: int, now: datetime) -> bool:
        at = to_ms(now)
        async with self._db.transaction() as conn:
            row = await conn.fetch_one(_PICK, (1 << position, exam_id, index, at))
            if row is None:
                return False
            picked = from_mask(int(row["picked"]))
            full = len(picked) == int(row["picks"])
            chosen, answered = (min(picked), at) if full else (None, None)
            await conn.execute(_PICKED_ANSWER, (chosen, answered, exam_id, index))
            await conn.execute("UPDATE exams SET current = ? WHERE id = ?", (index, exam_id))
            return True

    async def flag_exam(self, exam_id: int, index: int, now: datetime) -> bool:
        at = to_ms(now)
        return await self._press(_FLAG, (exam_id, index, exam_id, at), exam_id, index)

    async def _press(self, sql: str, params: tuple[object, ...], exam_id: int, page: int) -> bool:
        """Write a press on question `page` and make it the page shown, together."""
        async with self._db.transaction() as conn:
            if await conn.execute(sql, params) != 1:
                return False
            await conn.execute("UPDATE exams SET current = ? WHERE id = ?", (page, exam_id))
            return True

    async def show_exam_page(self, exam_id: int, page: int, now: datetime) -> bool:
        return await self._db.execute(_PAGE, (page, exam_id, to_ms(now), page)) == 1

    async def set_exam_message(self, exam_id: int, message_id: int) -> bool:
        return await self._db.execute(SET_MESSAGE, (message_id, exam_id)) == 1

    async def answered_questions(self, user_id: int, deck_id: str) -> frozenset[str]:
        found = await self._db.fetch_all(_ANSWERED, (user_id, deck_id, user_id, deck_id))
        return frozenset(str(row["question_id"]) for row in found)
