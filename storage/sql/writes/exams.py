"""The exam statements of `Writes`, on a connection whose write lock the caller holds; and the
mapping of exam rows to the model's types."""

from __future__ import annotations

from datetime import datetime

from bot.core.model import Exam, ExamDraft, ExamEnd, ExamItem, from_mask
from storage.sql.conn import Conn, Row, first_value
from storage.sql.rows import encode_order, from_ms, optional_ms, to_ms

EXAM_COLUMNS = (
    "id, user_id, chat_id, deck_id, size, pass_percent, started_at, deadline, message_id, "
    "current, submitted_at, submitted_by"
)
ITEM_COLUMNS = (
    "exam_id, seq, question_id, topic, option_order, question_hash, chosen, answered_at, flagged, "
    "picks, picked"
)
EXAM_ITEMS = f"SELECT {ITEM_COLUMNS} FROM exam_questions WHERE exam_id = ? ORDER BY seq"
# The partial UNIQUE index (one open exam per user) turns a second one into a no-op.
_INSERT_EXAM = (
    "INSERT INTO exams (user_id, chat_id, deck_id, size, pass_percent, started_at, deadline) "
    "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id"
)
_INSERT_ITEM = (
    "INSERT INTO exam_questions (exam_id, seq, question_id, topic, option_order, question_hash, "
    "picks) VALUES (?, ?, ?, ?, ?, ?, ?)"
)
# Conditional: whoever comes first (the learner, a late press, the ticker) submits it, once.
_SUBMIT = (
    "UPDATE exams SET submitted_at = ?, submitted_by = ? WHERE id = ? AND submitted_at IS NULL"
)


SET_MESSAGE = "UPDATE exams SET message_id = ? WHERE id = ? AND submitted_at IS NULL"


def exam_of(row: Row) -> Exam:
    by = row["submitted_by"]
    return Exam(
        id=int(row["id"]),
        user_id=int(row["user_id"]),
        chat_id=int(row["chat_id"]),
        deck_id=str(row["deck_id"]),
        size=int(row["size"]),
        pass_percent=int(row["pass_percent"]),
        started_at=from_ms(int(row["started_at"])),
        deadline=from_ms(int(row["deadline"])),
        message_id=row["message_id"],
        current=int(row["current"]),
        submitted_at=optional_ms(row["submitted_at"]),
        submitted_by=None if by is None else ExamEnd(by),
    )


def item_of(row: Row) -> ExamItem:
    return ExamItem(
        exam_id=int(row["exam_id"]),
        index=int(row["seq"]),
        question_id=str(row["question_id"]),
        topic=str(row["topic"]),
        option_order=tuple(int(part) for part in str(row["option_order"]).split(",")),
        question_hash=row["question_hash"],
        chosen=row["chosen"],
        answered_at=optional_ms(row["answered_at"]),
        flagged=bool(row["flagged"]),
        picks=int(row["picks"]),
        picked=from_mask(int(row["picked"] or 0)),
    )


class ExamWrites:
    """Mixed into `SqlWrites`."""

    _conn: Conn

    async def create_exam(self, draft: ExamDraft) -> Exam | None:
        """A new exam with its questions; None (nothing written) when the user has one open."""
        started, deadline = to_ms(draft.started_at), to_ms(draft.deadline)
        new_id = await first_value(
            self._conn,
            _INSERT_EXAM,
            (
                draft.user_id,
                draft.chat_id,
                draft.deck_id,
                len(draft.items),
                draft.pass_percent,
                started,
                deadline,
            ),
        )
        if new_id is None:
            return None
        exam_id = int(new_id)
        await self._conn.executemany(
            _INSERT_ITEM,
            [
                (
                    exam_id,
                    seq,
                    item.question_id,
                    item.topic,
                    encode_order(item.option_order),
                    item.question_hash,
                    item.picks,
                )
                for seq, item in enumerate(draft.items)
            ],
        )
        return Exam(
            id=exam_id,
            user_id=draft.user_id,
            chat_id=draft.chat_id,
            deck_id=draft.deck_id,
            size=len(draft.items),
            pass_percent=draft.pass_percent,
            started_at=from_ms(started),
            deadline=from_ms(deadline),
            message_id=None,
            current=0,
        )

    async def submit_exam(self, exam_id: int, by: ExamEnd, now: datetime) -> bool:
        return await self._conn.execute(_SUBMIT, (to_ms(now), by.value, exam_id)) == 1

    async def exam_items(self, exam_id: int) -> list[ExamItem]:
        return [item_of(row) for row in await self._conn.fetch_all(EXAM_ITEMS, (exam_id,))]

    async def set_exam_message(self, exam_id: int, message_id: int) -> bool:
        return await self._conn.execute(SET_MESSAGE, (message_id, exam_id)) == 1
