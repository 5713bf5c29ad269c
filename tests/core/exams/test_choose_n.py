""" "Choose N" questions in a practice exam: letters pressed toggle, the question counts as
answered with exactly N picked, and it scores only when they are exactly the right ones."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from random import Random

import pytest

from bot.core.catalog import Catalog
from bot.core.exams.actions import Choose, FinishNow, Shown, Started, Submitted
from bot.core.exams.owed import PostExamPage
from bot.core.model import ChatKind, ChatRef, ExamItem
from bot.core.services import Services, build_services
from content.models import Deck, ExamBlock, Question
from storage.sqlite import SqliteStore
from tests.fakes.clock import FakeClock

ALICE = 601
CHAT = ChatRef(ALICE, ChatKind.PRIVATE)
MESSAGE = 77


def _deck() -> Deck:
    questions = [
        Question(
            id=f"pair-{n}",
            topic="pairs",
            text=f"Which two are right ({n})? Choose two.",
            answers=[f"right {n}a", f"right {n}b"],
            wrong=[f"wrong {n}a", f"wrong {n}b"],
            explanation="because",
        )
        for n in range(2)
    ]
    return Deck(
        id="deck", title="Deck", source="t", questions=questions, exam=ExamBlock(questions=2)
    )


@pytest.fixture
async def services(tmp_path: Path) -> AsyncIterator[tuple[Services, SqliteStore]]:
    store = await SqliteStore.open(tmp_path / "exams.sqlite3")
    built = build_services(store, Catalog({"deck": _deck()}), FakeClock(), rng=Random(2))
    try:
        yield built, store
    finally:
        await store.close()


async def _start(services: Services) -> list[ExamItem]:
    started = await services.exams.start(CHAT, ALICE, None)
    assert isinstance(started, Started)
    for owed in await services.outbox.due(CHAT.id):
        if isinstance(owed, PostExamPage):
            await services.outbox.delivered(owed, MESSAGE)
    return list(started.view.items)


async def _press(services: Services, store: SqliteStore, action: object) -> object:
    exam = await store.open_exam(ALICE)
    assert exam is not None
    return await services.exams.press(
        user_id=ALICE,
        chat_id=CHAT.id,
        message_id=MESSAGE,
        exam_id=exam.id,
        action=action,  # type: ignore[arg-type]
    )


async def test_picks_toggle_and_exactly_n_right_ones_score(
    services: tuple[Services, SqliteStore],
) -> None:
    """Question 1: the two right letters (one picked, unpicked and picked again) → right;
    question 2: one right and one wrong → answered but wrong; 1 of 2."""
    built, store = services
    first, second = await _start(built)
    assert first.picks == 2
    one, two = sorted(first.right_positions)
    for position in (one, one, one, two):
        shown = await _press(built, store, Choose(0, position))
        assert isinstance(shown, Shown)
    assert shown.view.items[0].picked == frozenset({one, two})
    assert shown.view.items[0].answered
    half = await _press(built, store, Choose(1, sorted(second.right_positions)[0]))
    assert isinstance(half, Shown)
    assert not half.view.items[1].answered  # one of two picked: not yet an answer
    wrong = min(frozenset(range(4)) - second.right_positions)
    await _press(built, store, Choose(1, wrong))
    submitted = await _press(built, store, FinishNow())
    assert isinstance(submitted, Submitted)
    result = await built.exams.result(submitted.exam.id)
    assert result is not None
    assert (result.correct, result.total) == (1, 2)
