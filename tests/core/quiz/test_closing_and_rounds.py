"""Closing group questions and moving rounds on: state first, messages owed with it."""

from __future__ import annotations

from bot.core.model import ChatKind, ChatRef, Player
from bot.core.quiz import Queued
from bot.core.rounds.service import NoRound, NotAllowed, RoundOver, RoundRunning, Stopped
from tests.core.conftest import Core, post_all

GROUP = ChatRef(-100, ChatKind.SUPERGROUP, "Study group")
ALICE = Player(1, "Alice")
PRIVATE = ChatRef(ALICE.id, ChatKind.PRIVATE)


async def _kinds(core: Core, chat_id: int) -> list[str]:
    return [effect.kind for effect in await core.store.pending_effects(chat_id, 100)]


async def _yes() -> bool:
    return True


async def _no() -> bool:
    return False


async def test_close_owes_the_reveal_and_the_rounds_next_question_at_once(core: Core) -> None:
    """A round moves on when its question closes, whether or not anything was sent yet."""
    started = await core.rounds.start(GROUP, None, ALICE.id, 2)
    assert isinstance(started, Queued)
    await post_all(core, GROUP.id)
    core.clock.advance(seconds=61)
    assert await core.closer.close_due() == {GROUP.id}
    assert await _kinds(core, GROUP.id) == ["reveal", "question"]
    await post_all(core, GROUP.id)
    core.clock.advance(seconds=61)
    await core.closer.close_due()
    assert (await _kinds(core, GROUP.id))[-2:] == ["reveal", "summary"]
    assert await core.store.running_round(GROUP.id) is None


async def test_closing_twice_closes_once(core: Core) -> None:
    """A question that was closed already owes nothing more."""
    started = await core.rounds.start(GROUP, None, ALICE.id, 1)
    assert isinstance(started, Queued)
    await post_all(core, GROUP.id)
    core.clock.advance(seconds=61)
    await core.closer.close_due()
    assert not await core.closer.close(started.ask)
    assert await core.closer.close_due() == set()


async def test_round_never_repeats_a_question_across_a_pass_boundary(core: Core) -> None:
    """Half a pass asked before the round: the round still asks three different questions."""
    for _ in range(2):
        await core.quiz.quiz(PRIVATE, None)
    started = await core.rounds.start(PRIVATE, None, ALICE.id, 3)
    assert isinstance(started, Queued)
    asked = [started.ask.question_id]
    for count in (1, 2):
        await core.quiz.answer(
            chat_id=PRIVATE.id,
            message_id=None,
            ask_id=(await core.store.round_asks(started.ask.round_id or 0))[-1].id,
            position=0,
            player=ALICE,
        )
        step = await core.rounds.next(PRIVATE, started.ask.round_id or 0, count, None)
        assert isinstance(step, Queued)
        asked.append(step.ask.question_id)
    assert sorted(asked) == ["q0", "q1", "q2"]


async def test_round_is_never_longer_than_the_deck(core: Core) -> None:
    """/quiz 20 on a three-question deck is a round of three."""
    started = await core.rounds.start(PRIVATE, None, ALICE.id, 20)
    assert isinstance(started, Queued)
    running = await core.store.running_round(PRIVATE.id)
    assert running is not None
    assert running.size == 3


async def test_a_second_round_is_refused_and_a_repeated_next_does_nothing(core: Core) -> None:
    """One running round per chat; a `Next ▶` pressed twice asks one question."""
    started = await core.rounds.start(PRIVATE, None, ALICE.id, 3)
    assert isinstance(started, Queued)
    assert isinstance(await core.rounds.start(PRIVATE, None, ALICE.id, 2), RoundRunning)
    round_id = started.ask.round_id or 0
    first = await core.rounds.next(PRIVATE, round_id, 1, 55)
    second = await core.rounds.next(PRIVATE, round_id, 1, 55)
    assert isinstance(first, Queued)
    assert isinstance(second, RoundOver)
    assert len(await core.store.round_asks(round_id)) == 2


async def test_last_private_answer_ends_the_round_and_its_explanation_carries_the_summary(
    core: Core,
) -> None:
    """Answering a round's last question owes one explanation that carries the summary."""
    started = await core.rounds.start(PRIVATE, None, ALICE.id, 1)
    assert isinstance(started, Queued)
    await core.quiz.answer(
        chat_id=PRIVATE.id, message_id=None, ask_id=started.ask.id, position=0, player=ALICE
    )
    owed = await core.store.pending_effects(PRIVATE.id, 10)
    assert [item.kind for item in owed][-2:] == ["answered", "explanation"]
    assert owed[-1].round_id == started.ask.round_id
    assert owed[-1].next_asked is None
    assert await core.store.running_round(PRIVATE.id) is None


async def test_stop_needs_the_starter_or_an_admin_and_reveals_the_open_question(
    core: Core,
) -> None:
    """Another member may not stop a round; an admin may, which reveals and summarises."""
    await core.rounds.start(GROUP, None, ALICE.id, 3)
    assert isinstance(await core.rounds.stop(GROUP.id, 2, _no), NotAllowed)
    assert isinstance(await core.rounds.stop(GROUP.id, 2, _yes), Stopped)
    assert (await _kinds(core, GROUP.id))[-2:] == ["reveal", "summary"]
    assert isinstance(await core.rounds.stop(GROUP.id, ALICE.id, _yes), NoRound)
    summary = await core.rounds.summary((await core.store.round_asks(1))[0].round_id or 0)
    assert summary is not None
    assert summary.stopped


async def test_a_question_posted_late_still_gets_its_full_time(core: Core) -> None:
    """The deadline runs from the post: a question held back by flood control is not cut short."""
    started = await core.rounds.start(GROUP, None, ALICE.id, 2)
    assert isinstance(started, Queued)
    core.clock.advance(seconds=90)  # waiting for the group's window
    assert await core.closer.close_due() == set()
    await post_all(core, GROUP.id)
    core.clock.advance(seconds=59)
    assert await core.closer.close_due() == set()
    core.clock.advance(seconds=1)
    assert await core.closer.close_due() == {GROUP.id}


async def test_a_question_stopped_before_its_post_is_never_posted(core: Core) -> None:
    """/stop while the first question waits for its post: only the summary goes out."""
    await core.rounds.start(GROUP, None, ALICE.id, 3)
    assert isinstance(await core.rounds.stop(GROUP.id, ALICE.id, _no), Stopped)
    due = await core.outbox.due(GROUP.id)
    assert [item.effect.kind for item in due] == ["summary"]
