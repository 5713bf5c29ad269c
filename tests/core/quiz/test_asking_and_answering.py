"""Asking and answering on a real database: what is recorded and which messages are owed."""

from __future__ import annotations

import pytest

from bot.core.model import Ask, ChatKind, ChatRef, Player
from bot.core.quiz import Queued, StillOpen
from bot.core.rules.scoring import AlreadyAnswered, Invalid, Recorded, TooLate
from tests.core.conftest import Core, post_all

ALICE = Player(1, "Alice")
BOB = Player(2, "Bob")
PRIVATE = ChatRef(ALICE.id, ChatKind.PRIVATE)
GROUP = ChatRef(-100, ChatKind.SUPERGROUP, "Study group")


async def _asked(core: Core, chat: ChatRef = PRIVATE, thread: int | None = None) -> Ask:
    outcome = await core.quiz.quiz(chat, thread)
    assert isinstance(outcome, Queued)
    return outcome.ask


async def _kinds(core: Core, chat_id: int) -> list[str]:
    return [effect.kind for effect in await core.store.pending_effects(chat_id, 100)]


async def test_quiz_stores_the_ask_and_owes_its_message_in_one_commit(core: Core) -> None:
    """/quiz leaves an ask without a message and one owed QUESTION for it."""
    ask = await _asked(core)
    assert ask.message_id is None
    effects = await core.store.pending_effects(PRIVATE.id, 10)
    assert [(e.kind, e.ask_id) for e in effects] == [("question", ask.id)]


async def test_private_answer_closes_and_owes_the_mark_and_the_explanation(core: Core) -> None:
    """A first private press is scored, closes the question and owes two messages with it."""
    ask = await _asked(core)
    result = await core.quiz.answer(
        chat_id=PRIVATE.id,
        message_id=None,
        ask_id=ask.id,
        position=ask.right_position,
        player=ALICE,
    )
    assert isinstance(result, Recorded)
    assert result.answer.correct
    stored = await core.store.get_ask(ask.id)
    assert stored is not None
    assert stored.is_closed
    assert await _kinds(core, PRIVATE.id) == [
        "question",
        "answered",
        "explanation",
    ]
    stats = await core.store.user_stats(PRIVATE.id, ALICE.id)
    assert (stats.answered, stats.correct) == (1, 1)


async def test_second_press_returns_the_first_answer_and_owes_nothing(core: Core) -> None:
    """Pressing again reports the first answer; no new answer and no new message."""
    ask = await _asked(core)
    wrong = (ask.right_position + 1) % 4
    await core.quiz.answer(
        chat_id=PRIVATE.id, message_id=None, ask_id=ask.id, position=wrong, player=ALICE
    )
    again = await core.quiz.answer(
        chat_id=PRIVATE.id,
        message_id=None,
        ask_id=ask.id,
        position=ask.right_position,
        player=ALICE,
    )
    assert isinstance(again, AlreadyAnswered)
    assert again.answer.position == wrong
    assert len(await _kinds(core, PRIVATE.id)) == 3
    stats = await core.store.user_stats(PRIVATE.id, ALICE.id)
    assert (stats.answered, stats.correct) == (1, 0)


@pytest.mark.parametrize(
    ("chat_id", "ask_offset", "position"),
    [
        (ALICE.id, 1000, 0),  # ask does not exist
        (BOB.id, 0, 0),  # ask belongs to another chat
        (ALICE.id, 0, 4),  # option past the last one
        (ALICE.id, 0, -1),  # option before the first one
    ],
)
async def test_forged_presses_are_invalid_and_write_nothing(
    core: Core, chat_id: int, ask_offset: int, position: int
) -> None:
    """A press naming a missing ask, another chat or no option is refused, and nothing changes."""
    ask = await _asked(core)
    result = await core.quiz.answer(
        chat_id=chat_id, message_id=None, ask_id=ask.id + ask_offset, position=position, player=BOB
    )
    assert isinstance(result, Invalid)
    assert await core.store.get_answer(ask.id, BOB.id) is None
    assert await _kinds(core, PRIVATE.id) == ["question"]


async def test_press_after_the_deadline_is_too_late(core: Core) -> None:
    """A group question past its stored deadline takes no more answers."""
    ask = await _asked(core, GROUP)
    core.clock.advance(seconds=301)
    result = await core.quiz.answer(
        chat_id=GROUP.id, message_id=None, ask_id=ask.id, position=0, player=BOB
    )
    assert isinstance(result, TooLate)


async def test_group_gets_no_second_quiz_while_one_is_open_in_the_thread(core: Core) -> None:
    """A second group /quiz points at the open one (the group is owed one pointer, however
    many ask); another forum topic gets its own question."""
    first = await _asked(core, GROUP, thread=7)
    assert await core.quiz.quiz(GROUP, 7) == StillOpen(first, pointed=True)
    assert await core.quiz.quiz(GROUP, 7) == StillOpen(first, pointed=False)
    pointers = [e for e in await core.store.pending_effects(GROUP.id, 10) if e.kind == "still_open"]
    assert [e.ask_id for e in pointers] == [first.id]
    assert isinstance(await core.quiz.quiz(GROUP, 8), Queued)
    await post_all(core, GROUP.id)
    core.clock.advance(seconds=301)
    await core.closer.close_due()
    assert isinstance(await core.quiz.quiz(GROUP, 7), Queued)


async def test_private_chats_may_ask_freely(core: Core) -> None:
    """Private /quiz never refuses, even with a question unanswered."""
    await _asked(core)
    assert isinstance(await core.quiz.quiz(PRIVATE, None), Queued)


async def test_questions_cycle_through_the_deck_per_chat(core: Core) -> None:
    """Six asks in a three-question deck are two full passes."""
    ids = [(await _asked(core)).question_id for _ in range(6)]
    assert sorted(ids[:3]) == sorted(ids[3:]) == ["q0", "q1", "q2"]
