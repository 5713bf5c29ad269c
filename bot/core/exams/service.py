"""Mock exams: `/exam` starts a timed exam in a private chat; the learner answers, changes
answers, flags and moves between questions in one message; the exam is submitted by the learner
or at its deadline (once, whichever comes first), scored, and fed to the learner's memory.

Exams never write `answers`, so they do not count on leaderboards.
"""

from __future__ import annotations

from random import Random

from bot.core.catalog import Catalog
from bot.core.chats import ChatService
from bot.core.clock import Clock
from bot.core.delivery import Outbox
from bot.core.exams.actions import (
    Choose,
    ConfirmFinish,
    ExamAction,
    Finish,
    FinishNow,
    Flag,
    Go,
    InProgress,
    MissShown,
    PressOutcome,
    Refusal,
    Refused,
    ResultShown,
    Resume,
    Resumed,
    ShowMiss,
    Shown,
    ShowResult,
    Started,
    Submitted,
)
from bot.core.exams.draw import SizeOutOfRange, draw_exam, plan_exam
from bot.core.exams.owed import ExamPageKind, ExamResultKind, exam_page, exam_result
from bot.core.exams.views import ExamResult, ExamView, MissView
from bot.core.memory.scheduling import Memory
from bot.core.model import ChatRef
from bot.core.model.exams import Exam, ExamDraft, ExamEnd
from bot.core.model.memory import LearnSource
from bot.core.ports import Store
from bot.core.ports.exams import ExamStore

DUE_BATCH = 200


class ExamService:
    def __init__(
        self,
        *,
        store: Store,
        exams: ExamStore,
        chats: ChatService,
        catalog: Catalog,
        memory: Memory,
        clock: Clock,
        rng: Random,
        outbox: Outbox,
    ) -> None:
        self._outbox = outbox
        outbox.register(ExamResultKind(self.result))
        outbox.register(ExamPageKind(self.current_page))
        self._store = store
        self._exams = exams
        self._chats = chats
        self._catalog = catalog
        self._memory = memory
        self._clock = clock
        self._rng = rng

    async def start(
        self, chat: ChatRef, user_id: int, requested: int | None
    ) -> Started | InProgress | SizeOutOfRange:
        """`/exam [N]` in a private chat: a new exam on the chat's deck, unless one is open."""
        running = await self._exams.open_exam(user_id)
        if running is not None and running.deadline <= self._clock.now():
            await self._submit(running, ExamEnd.DEADLINE)
            running = None
        if running is not None:
            return InProgress(await self.view(running, running.current))
        deck = await self._chats.deck_for(chat.id)
        plan = plan_exam(deck, requested)
        if isinstance(plan, SizeOutOfRange):
            return plan
        seen = await self._exams.answered_questions(user_id, deck.id)
        items = draw_exam(deck, plan, seen, self._rng)
        now = self._clock.now()
        draft = ExamDraft(
            user_id, chat.id, deck.id, plan.pass_percent, now, now + plan.duration, items
        )
        async with self._store.transaction() as tx:
            await tx.upsert_chat(chat, now)
            exam = await tx.create_exam(draft)
            if exam is not None:
                await self._outbox.owe(tx, exam_page(exam))
        if exam is None:  # another /exam of the same user won the race
            running = await self._exams.open_exam(user_id)
            if running is None:
                raise RuntimeError("an open exam vanished")
            return InProgress(await self.view(running, running.current))
        return Started(await self.view(exam, 0))

    async def current_page(self, exam_id: int) -> ExamView | None:
        """The open exam's page as it is now; None once it was submitted."""
        exam = await self._exams.get_exam(exam_id)
        if exam is None or not exam.is_open:
            return None
        return await self.view(exam, exam.current)

    async def press(
        self, *, user_id: int, chat_id: int, message_id: int, exam_id: int, action: ExamAction
    ) -> PressOutcome:
        """A button of an exam message, of `/exam`'s prompt or of a result message."""
        exam = await self._exams.get_exam(exam_id)
        if exam is None:
            return Refused(Refusal.UNKNOWN)
        if exam.user_id != user_id:
            return Refused(Refusal.NOT_YOURS)
        if exam.chat_id != chat_id:
            return Refused(Refusal.UNKNOWN)
        if isinstance(action, ShowResult | ShowMiss):
            return await self._result_page(exam, action)
        if not exam.is_open:
            return Refused(Refusal.SUBMITTED)
        if exam.deadline <= self._clock.now():
            await self._submit(exam, ExamEnd.DEADLINE)  # the ticker may have been first
            return Submitted(exam, timed_out=True)
        if isinstance(action, Resume):
            async with self._store.transaction() as tx:
                await self._outbox.owe(tx, exam_page(exam, exam.message_id))
            return Resumed(await self.view(exam, exam.current), exam.message_id)
        if isinstance(action, FinishNow):
            if not await self._submit(exam, ExamEnd.USER):
                return Refused(Refusal.SUBMITTED)
            return Submitted(exam, timed_out=False)
        if exam.message_id != message_id:
            return Refused(Refusal.MOVED)
        return await self._on_page(exam, action)

    async def _on_page(self, exam: Exam, action: Choose | Go | Flag | Finish) -> PressOutcome:
        items = await self._exams.exam_items(exam.id)
        now = self._clock.now()
        match action:
            case Choose(index=index, position=position):
                if index >= len(items) or position >= len(items[index].option_order):
                    return Refused(Refusal.UNKNOWN)
                choose = (
                    self._exams.pick_exam if items[index].picks > 1 else self._exams.answer_exam
                )
                written, page = await choose(exam.id, index, position, now), index
            case Flag(index=index):
                if index >= len(items):
                    return Refused(Refusal.UNKNOWN)
                written, page = await self._exams.flag_exam(exam.id, index, now), index
            case Go(page=page):
                if page > len(items):
                    return Refused(Refusal.UNKNOWN)
                written = await self._exams.show_exam_page(exam.id, page, now)
            case Finish():
                if any(not item.answered for item in items):
                    return ConfirmFinish(await self.view(exam, exam.current))
                if not await self._submit(exam, ExamEnd.USER):
                    return Refused(Refusal.SUBMITTED)
                return Submitted(exam, timed_out=False)
        if not written:  # submitted (or out of time) between the read and the write
            return Refused(Refusal.SUBMITTED)
        return Shown(await self.view(exam, page))

    async def view(self, exam: Exam, page: int) -> ExamView:
        items = tuple(await self._exams.exam_items(exam.id))
        page = min(max(page, 0), len(items))
        question = None
        if page < len(items):
            question = self._catalog.question(exam.deck_id, items[page].question_id)
        title = self._catalog.title(exam.deck_id)
        return ExamView(exam, items, page, self._clock.now(), title, question)

    async def result(self, exam_id: int) -> ExamResult | None:
        """The scored exam, once submitted."""
        exam = await self._exams.get_exam(exam_id)
        if exam is None or exam.is_open:
            return None
        items = tuple(await self._exams.exam_items(exam.id))
        return ExamResult(exam, items, self._catalog.title(exam.deck_id))

    async def _result_page(self, exam: Exam, action: ShowResult | ShowMiss) -> PressOutcome:
        result = await self.result(exam.id)
        if result is None:
            return Refused(Refusal.OPEN)
        if isinstance(action, ShowResult):
            return ResultShown(result)
        misses = result.misses
        if action.number >= len(misses):
            return Refused(Refusal.UNKNOWN)
        item = result.items[misses[action.number]]
        question = self._catalog.question(exam.deck_id, item.question_id)
        return MissShown(MissView(result, action.number, item, question))

    async def close_due(self) -> set[int]:
        """Submit every exam whose deadline has come (the ticker); the chats owed a result."""
        chats: set[int] = set()
        while True:
            due = await self._exams.due_exams(self._clock.now(), DUE_BATCH)
            for exam in due:
                if await self._submit(exam, ExamEnd.DEADLINE):
                    chats.add(exam.chat_id)
            if len(due) < DUE_BATCH:
                return chats

    async def _submit(self, exam: Exam, by: ExamEnd) -> bool:
        """Close the exam, feed each answer to the learner's memory and owe the result message,
        in one commit; False when it was submitted already."""
        now = self._clock.now()
        await self._memory.prepare(exam.user_id, exam.deck_id)
        async with self._store.transaction() as tx:
            if not await tx.submit_exam(exam.id, by, now):
                return False
            for item in await tx.exam_items(exam.id):
                if item.answered:
                    await self._memory.learn(
                        tx,
                        user_id=exam.user_id,
                        deck_id=exam.deck_id,
                        question_id=item.question_id,
                        correct=item.correct,
                        now=now,
                        duration=None,
                        source=LearnSource.EXAM,
                    )
            await self._outbox.owe(tx, exam_result(exam))
        return True
