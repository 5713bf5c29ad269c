"""The storage ports of mock exams (`ExamWrites` is part of `ports.Writes`)."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from bot.core.model.exams import Exam, ExamDraft, ExamEnd, ExamItem


class ExamWrites(Protocol):
    """Exam writes that commit with the transaction they are called in."""

    async def create_exam(self, draft: ExamDraft) -> Exam | None:
        """Store a new exam with its questions; None (nothing written) when the user has an
        open exam already."""
        ...

    async def submit_exam(self, exam_id: int, by: ExamEnd, now: datetime) -> bool:
        """Close an open exam; False when it was submitted already (it happens once)."""
        ...

    async def exam_items(self, exam_id: int) -> list[ExamItem]:
        """The exam's questions in exam order, read inside the transaction."""
        ...

    async def set_exam_message(self, exam_id: int, message_id: int) -> bool:
        """The open exam is shown in `message_id` now; False once it was submitted."""
        ...


class ExamStore(Protocol):
    """Exam reads, and the learner's presses, each committed on return."""

    async def get_exam(self, exam_id: int) -> Exam | None: ...

    async def open_exam(self, user_id: int) -> Exam | None:
        """The user's exam that is not submitted yet, if any (one at a time)."""
        ...

    async def exam_items(self, exam_id: int) -> list[ExamItem]: ...

    async def due_exams(self, now: datetime, limit: int) -> list[Exam]:
        """Open exams whose deadline has come, the earliest deadline first."""
        ...

    async def answer_exam(self, exam_id: int, index: int, position: int, now: datetime) -> bool:
        """Choose (or change to) `position` for question `index`, which becomes the page shown;
        False (nothing written) once the exam is submitted or its deadline has come."""
        ...

    async def pick_exam(self, exam_id: int, index: int, position: int, now: datetime) -> bool:
        """Pick `position` of "choose N" question `index`, or unpick it; answered when exactly
        N are picked. The question becomes the page shown; False as for `answer_exam`."""
        ...

    async def flag_exam(self, exam_id: int, index: int, now: datetime) -> bool:
        """Toggle the flag of question `index`, which becomes the page shown; False (nothing
        written) once the exam is submitted or its deadline has come."""
        ...

    async def show_exam_page(self, exam_id: int, page: int, now: datetime) -> bool:
        """Note the page shown; False (nothing written) once the exam is over."""
        ...

    async def set_exam_message(self, exam_id: int, message_id: int) -> bool:
        """The message that shows the open exam from now on; False when it is submitted."""
        ...

    async def answered_questions(self, user_id: int, deck_id: str) -> frozenset[str]:
        """The ids of the deck's questions the user has ever answered, anywhere (quizzes,
        rounds, daily questions, reviews and submitted exams)."""
        ...
