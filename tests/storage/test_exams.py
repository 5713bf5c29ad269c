"""Exams on either engine: one open per user, presses only while open, submitted once,
forgettable."""

from __future__ import annotations

from datetime import timedelta

from bot.core.model import (
    ChatKind,
    ChatRef,
    ExamDraft,
    ExamEnd,
    ExamItemDraft,
    NewEffect,
)
from storage.sql.store import SqlStore
from tests.storage.helpers import ALICE, BOB, Raw, utc

NOW = utc(2026, 12, 2, 9)
CHAT = ChatRef(ALICE.id, ChatKind.PRIVATE)


def draft(user_id: int = ALICE.id) -> ExamDraft:
    items = tuple(ExamItemDraft(f"q{i}", "t", (2, 0, 1, 3), "abc") for i in range(3))
    return ExamDraft(user_id, user_id, "deck", 70, NOW, NOW + timedelta(minutes=5), items)


async def open_exam(store: SqlStore, user_id: int = ALICE.id) -> int:
    async with store.transaction() as tx:
        await tx.upsert_chat(ChatRef(user_id, ChatKind.PRIVATE), NOW)
        exam = await tx.create_exam(draft(user_id))
    assert exam is not None
    return exam.id


async def test_a_user_has_one_open_exam_at_a_time(store: SqlStore) -> None:
    """A second exam while one is open writes nothing; after submission a new one may start."""
    first = await open_exam(store)
    async with store.transaction() as tx:
        assert await tx.create_exam(draft()) is None
    assert [item.index for item in await store.exam_items(first)] == [0, 1, 2]
    async with store.transaction() as tx:
        assert await tx.submit_exam(first, ExamEnd.USER, NOW)
        assert not await tx.submit_exam(first, ExamEnd.DEADLINE, NOW)
    assert await open_exam(store) != first
    exam = await store.get_exam(first)
    assert exam is not None
    assert exam.submitted_by is ExamEnd.USER


async def test_presses_write_only_while_the_exam_is_open_and_in_time(store: SqlStore) -> None:
    """Choices, flags and pages stop at the deadline and at submission; a change overwrites."""
    exam_id = await open_exam(store)
    assert await store.answer_exam(exam_id, 1, 3, NOW)
    assert await store.answer_exam(exam_id, 1, 0, NOW + timedelta(minutes=1))
    assert await store.flag_exam(exam_id, 2, NOW)
    assert not await store.show_exam_page(exam_id, 4, NOW)  # past the overview page
    assert await store.show_exam_page(exam_id, 3, NOW)
    late = NOW + timedelta(minutes=5)
    assert not await store.answer_exam(exam_id, 0, 1, late)
    assert not await store.flag_exam(exam_id, 0, late)
    assert not await store.show_exam_page(exam_id, 0, late)
    items = await store.exam_items(exam_id)
    assert [(i.chosen, i.flagged, i.correct) for i in items] == [
        (None, False, False),
        (0, False, False),
        (None, True, False),
    ]
    assert items[1].answered_at == NOW + timedelta(minutes=1)
    exam = await store.get_exam(exam_id)
    assert exam is not None
    assert exam.current == 3
    assert await store.due_exams(late, 10) == [exam]
    assert await store.due_exams(late - timedelta(seconds=1), 10) == []


async def test_forgetting_a_user_deletes_their_exams_and_owed_results(
    store: SqlStore, raw: Raw
) -> None:
    """/forgetme takes the exams, their questions and pending result messages; Bob's stay."""
    mine, bobs = await open_exam(store), await open_exam(store, BOB.id)
    async with store.transaction() as tx:
        await tx.submit_exam(mine, ExamEnd.DEADLINE, NOW)
        await tx.enqueue(NewEffect(ALICE.id, "exam_result", exam_id=mine), NOW)
    await store.forget_user(ALICE.id, {})
    assert await store.get_exam(mine) is None
    assert await store.exam_items(mine) == []
    assert await raw.count("effects", "exam_id IS NOT NULL") == 0
    assert len(await store.exam_items(bobs)) == 3
    assert await raw.foreign_key_violations() == []
