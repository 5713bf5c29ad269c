"""The exam use cases over a real SQLite database: start, press, submit once, score, remember."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from random import Random

import pytest

from bot.core.catalog import Catalog
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
    PressOutcome,
    Refusal,
    Refused,
    Shown,
    Started,
    Submitted,
)
from bot.core.exams.owed import PostExamPage
from bot.core.exams.service import ExamService
from bot.core.exams.views import ExamView
from bot.core.model import ChatKind, ChatRef, ExamEnd
from bot.core.services import build_services
from content.models import ExamBlock
from storage.sqlite import SqliteStore
from tests.builders import deck_of
from tests.fakes.clock import FakeClock

ALICE, BOB = 501, 502
CHAT = ChatRef(ALICE, ChatKind.PRIVATE)
MESSAGE = 900


@dataclass
class Exams:
    store: SqliteStore
    clock: FakeClock
    service: ExamService
    outbox: Outbox

    async def press(
        self, action: ExamAction, *, user: int = ALICE, message: int = MESSAGE
    ) -> PressOutcome:
        exam = await self.store.open_exam(ALICE)
        exam_id = exam.id if exam is not None else 1
        return await self.service.press(
            user_id=user, chat_id=CHAT.id, message_id=message, exam_id=exam_id, action=action
        )


@pytest.fixture
async def exams(tmp_path: Path) -> AsyncIterator[Exams]:
    store = await SqliteStore.open(tmp_path / "exams.sqlite3")
    clock = FakeClock()
    block = ExamBlock(questions=4, minutes=10, pass_percent=75)
    catalog = Catalog({"deck": deck_of({"a": 3, "b": 3}, block)})
    services = build_services(store, catalog, clock, rng=Random(4))
    try:
        yield Exams(store, clock, services.exams, services.outbox)
    finally:
        await store.close()


async def started(exams: Exams) -> ExamView:
    outcome = await exams.service.start(CHAT, ALICE, None)
    assert isinstance(outcome, Started)
    for owed in await exams.outbox.due(CHAT.id):  # the page is owed: posted as a sender would
        if isinstance(owed, PostExamPage):
            await exams.outbox.delivered(owed, MESSAGE)
    return outcome.view


async def test_starting_stores_the_exam_its_deadline_and_its_questions(exams: Exams) -> None:
    """/exam draws the deck's exam (two per topic here) with a deadline; one at a time."""
    view = await started(exams)
    assert view.exam.deadline == exams.clock.now() + timedelta(minutes=10)
    assert sorted(item.topic for item in view.items) == ["a", "a", "b", "b"]
    assert view.page == 0
    assert view.question is not None
    again = await exams.service.start(CHAT, ALICE, 2)
    assert isinstance(again, InProgress)
    assert again.view.exam.id == view.exam.id


async def test_answers_change_flags_toggle_and_pages_move_without_scoring(exams: Exams) -> None:
    """A changed answer keeps the last choice; the flag toggles; no right or wrong is told."""
    await started(exams)
    assert isinstance(await exams.press(Choose(1, 0)), Shown)
    shown = await exams.press(Choose(1, 2))
    assert isinstance(shown, Shown)
    assert shown.view.page == 1
    assert shown.view.items[1].chosen == 2
    flagged = await exams.press(Flag(1))
    assert isinstance(flagged, Shown)
    assert flagged.view.flagged == [1]
    unflagged = await exams.press(Flag(1))
    assert isinstance(unflagged, Shown)
    assert unflagged.view.flagged == []
    overview = await exams.press(Go(4))
    assert isinstance(overview, Shown)
    assert overview.view.on_overview
    exam = await exams.store.open_exam(ALICE)
    assert exam is not None
    assert exam.current == 4


async def test_finish_asks_to_confirm_while_questions_are_unanswered(exams: Exams) -> None:
    """Finish with blanks asks first; `Finish now` submits."""
    await started(exams)
    await exams.press(Choose(0, 0))
    confirm = await exams.press(Finish())
    assert isinstance(confirm, ConfirmFinish)
    assert confirm.view.unanswered == [1, 2, 3]
    assert await exams.store.open_exam(ALICE) is not None
    assert isinstance(await exams.press(FinishNow()), Submitted)
    assert await exams.store.open_exam(ALICE) is None


async def test_an_exam_is_submitted_once_and_feeds_memory_not_leaderboards(exams: Exams) -> None:
    """One result owed, one learning-log row per answer (source exam), no `answers` rows."""
    view = await started(exams)
    for item in view.items[:3]:
        await exams.press(
            Choose(item.index, item.right_position if item.index else 3 - item.right_position)
        )
    assert isinstance(await exams.press(FinishNow()), Submitted)
    assert await exams.press(FinishNow()) == Refused(Refusal.SUBMITTED)
    exams.clock.advance(minutes=11)
    assert await exams.service.close_due() == set()
    effects = await exams.store.pending_effects(CHAT.id, 10)
    assert [(e.kind, e.exam_id, e.message_id) for e in effects] == [
        ("exam_result", view.exam.id, MESSAGE)
    ]
    learned = await exams.store.history(ALICE, "deck", view.exam.started_at)
    assert sorted(entry.correct for entry in learned) == [False, True, True]
    assert (await exams.store.user_stats(CHAT.id, ALICE)).answered == 0
    result = await exams.service.result(view.exam.id)
    assert result is not None
    assert (result.correct, result.total, result.percent, result.passed) == (2, 4, 50, False)
    assert result.misses == [0, 3]
    assert result.exam.submitted_by is ExamEnd.USER


async def test_the_deadline_submits_the_exam_and_owes_its_result(exams: Exams) -> None:
    """The ticker's close_due submits an overdue exam (once) and names its chat."""
    view = await started(exams)
    exams.clock.advance(minutes=10)
    assert await exams.service.close_due() == {CHAT.id}
    assert await exams.service.close_due() == set()
    result = await exams.service.result(view.exam.id)
    assert result is not None
    assert result.exam.submitted_by is ExamEnd.DEADLINE
    assert result.time_used == timedelta(minutes=10)
    assert (result.correct, result.unanswered, result.passed) == (0, 4, False)


async def test_a_press_after_the_deadline_submits_instead_of_writing(exams: Exams) -> None:
    """Out of time: the press submits the exam (timed out) and its choice is not stored."""
    view = await started(exams)
    exams.clock.advance(minutes=10, seconds=1)
    outcome = await exams.press(Choose(0, 1))
    assert isinstance(outcome, Submitted)
    assert outcome.timed_out
    items = await exams.store.exam_items(view.exam.id)
    assert all(item.chosen is None for item in items)


async def test_stale_forged_and_foreign_presses_write_nothing(exams: Exams) -> None:
    """An old message, someone else, an index out of range: refused, the exam unchanged."""
    view = await started(exams)
    assert await exams.press(Choose(0, 0), message=MESSAGE - 5) == Refused(Refusal.MOVED)
    assert await exams.press(Choose(0, 0), user=BOB) == Refused(Refusal.NOT_YOURS)
    assert await exams.press(Choose(9, 0)) == Refused(Refusal.UNKNOWN)
    assert await exams.press(Choose(0, 7)) == Refused(Refusal.UNKNOWN)
    assert await exams.press(Go(5)) == Refused(Refusal.UNKNOWN)
    other_chat = await exams.service.press(
        user_id=ALICE, chat_id=-100, message_id=MESSAGE, exam_id=view.exam.id, action=Go(1)
    )
    assert other_chat == Refused(Refusal.UNKNOWN)
    assert await exams.store.exam_items(view.exam.id) == list(view.items)


async def test_questions_answered_before_come_after_the_unseen_ones(exams: Exams) -> None:
    """After an exam of four of the six questions, the next exam has the other two."""
    first = await started(exams)
    for item in first.items:
        await exams.press(Choose(item.index, 0))
    await exams.press(FinishNow())
    second = await started(exams)
    unseen = {"a-0", "a-1", "a-2", "b-0", "b-1", "b-2"} - {i.question_id for i in first.items}
    assert unseen <= {item.question_id for item in second.items}
