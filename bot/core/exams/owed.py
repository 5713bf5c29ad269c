"""What exams owe: the exam's page as a new message (at the start, or on Resume: the old
message loses its buttons), and a submitted exam's result (its message closed first)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime

from bot.core.delivery import OwedKind
from bot.core.exams.views import ExamResult, ExamView
from bot.core.model import Effect, NewEffect
from bot.core.model.exams import Exam
from bot.core.ports import Writes

EXAM_RESULT = "exam_result"
EXAM_PAGE = "exam_page"


@dataclass(frozen=True)
class ShowExamResult:
    """A submitted exam's result; `effect.message_id`, the exam's message, is closed first."""

    effect: Effect
    result: ExamResult


class ExamResultKind(OwedKind[ShowExamResult]):
    name = EXAM_RESULT

    def __init__(self, result: Callable[[int], Awaitable[ExamResult | None]]) -> None:
        self._result = result

    async def prepare(self, effect: Effect) -> ShowExamResult | None:
        found = None if effect.exam_id is None else await self._result(effect.exam_id)
        return None if found is None else ShowExamResult(effect, found)


def exam_result(exam: Exam) -> NewEffect:
    return NewEffect(exam.chat_id, EXAM_RESULT, exam_id=exam.id, message_id=exam.message_id)


@dataclass(frozen=True)
class PostExamPage:
    """The open exam's current page, posted as a new message (`effect.message_id`: the
    exam's old message, which loses its buttons first)."""

    effect: Effect
    view: ExamView


class ExamPageKind(OwedKind[PostExamPage]):
    name = EXAM_PAGE

    def __init__(self, page: Callable[[int], Awaitable[ExamView | None]]) -> None:
        self._page = page

    async def prepare(self, effect: Effect) -> PostExamPage | None:
        view = None if effect.exam_id is None else await self._page(effect.exam_id)
        return None if view is None else PostExamPage(effect, view)

    async def delivered(
        self, tx: Writes, shown: PostExamPage, message_id: int | None, now: datetime
    ) -> None:
        if message_id is not None:
            await tx.set_exam_message(shown.view.exam.id, message_id)


def exam_page(exam: Exam, old_message_id: int | None = None) -> NewEffect:
    return NewEffect(exam.chat_id, EXAM_PAGE, exam_id=exam.id, message_id=old_message_id)
