"""The quiz service on a real database: asking, answering and every way a press can be wrong."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from random import Random

import pytest

from bot.core.model import ChatKind, ChatRef, Player
from bot.core.scoring import AlreadyAnswered, Invalid, Recorded, TooLate
from bot.core.service import QuizService
from storage.db import Database
from tests.core.test_selection import _deck
from tests.fakes.clock import FakeClock

ALICE = Player(1, "Alice")
BOB = Player(2, "Bob")
PRIVATE = ChatRef(ALICE.id, ChatKind.PRIVATE)


@pytest.fixture
async def quiz(tmp_path: Path) -> AsyncIterator[QuizService]:
    db = await Database.open(tmp_path / "quiz.sqlite3")
    try:
        yield QuizService(db, {"deck": _deck(3)}, FakeClock(), rng=Random(5))
    finally:
        await db.close()


async def test_private_answer_is_recorded_scored_and_closes_the_question(
    quiz: QuizService,
) -> None:
    """A first press is recorded with its correctness and closes a private question."""
    new = await quiz.new_ask(PRIVATE)
    await quiz.attach_message(new.ask, 10)
    right = new.ask.right_position
    result = await quiz.answer(
        chat_id=PRIVATE.id, message_id=10, ask_id=new.ask.id, position=right, player=ALICE
    )
    assert isinstance(result, Recorded)
    assert result.answer.correct
    assert result.question.id == new.question.id
    ask = await quiz.repo.get_ask(new.ask.id)
    assert ask is not None
    assert ask.is_closed
    stats = await quiz.stats(PRIVATE.id, ALICE.id)
    assert (stats.answered, stats.correct) == (1, 1)


async def test_second_press_returns_the_first_answer(quiz: QuizService) -> None:
    """Pressing again reports the first answer and records nothing new."""
    new = await quiz.new_ask(PRIVATE)
    wrong = (new.ask.right_position + 1) % 4
    await quiz.answer(
        chat_id=PRIVATE.id, message_id=None, ask_id=new.ask.id, position=wrong, player=ALICE
    )
    again = await quiz.answer(
        chat_id=PRIVATE.id,
        message_id=None,
        ask_id=new.ask.id,
        position=new.ask.right_position,
        player=ALICE,
    )
    assert isinstance(again, AlreadyAnswered)
    assert again.answer.position == wrong
    stats = await quiz.stats(PRIVATE.id, ALICE.id)
    assert (stats.answered, stats.correct) == (1, 0)


@pytest.mark.parametrize(
    ("chat_id", "message_id", "ask_offset", "position"),
    [
        (ALICE.id, 10, 1000, 0),  # ask does not exist
        (BOB.id, 10, 0, 0),  # ask belongs to another chat
        (ALICE.id, 11, 0, 0),  # button from another message
        (ALICE.id, 10, 0, 4),  # option past the last one
    ],
)
async def test_forged_presses_are_invalid_and_write_nothing(
    quiz: QuizService, chat_id: int, message_id: int, ask_offset: int, position: int
) -> None:
    """A press naming a missing ask, another chat, another message or no option is refused."""
    new = await quiz.new_ask(PRIVATE)
    await quiz.attach_message(new.ask, 10)
    result = await quiz.answer(
        chat_id=chat_id,
        message_id=message_id,
        ask_id=new.ask.id + ask_offset,
        position=position,
        player=ALICE,
    )
    assert isinstance(result, Invalid)
    row = await quiz.repo.db.fetch_one(
        "SELECT (SELECT count(*) FROM answers), (SELECT count(*) FROM users)"
    )
    assert row is not None
    assert tuple(row) == (0, 0)


async def test_press_after_a_deadline_is_too_late(quiz: QuizService, tmp_path: Path) -> None:
    """A question past its stored deadline takes no more answers."""
    await quiz.repo.upsert_chat(ChatRef(-5, ChatKind.GROUP, "g"), quiz.clock.now())
    ask = await quiz.repo.create_ask(
        chat_id=-5,
        thread_id=None,
        deck_id="deck",
        question_id="q0",
        pass_no=1,
        option_order=(0, 1, 2, 3),
        asked_at=quiz.clock.now(),
        closes_at=quiz.clock.now(),
    )
    result = await quiz.answer(chat_id=-5, message_id=None, ask_id=ask.id, position=0, player=BOB)
    assert isinstance(result, TooLate)


async def test_questions_cycle_through_the_deck_per_chat(quiz: QuizService) -> None:
    """Six asks in a three-question deck are two full passes."""
    ids = [(await quiz.new_ask(PRIVATE)).question.id for _ in range(6)]
    assert sorted(ids[:3]) == sorted(ids[3:]) == ["q0", "q1", "q2"]
