"""Delivering owed messages: retries with back-off, giving up, and what a failure changes."""

from __future__ import annotations

from bot.core.delivery import BACKOFF_SECONDS, Notice
from bot.core.model import ChatKind, ChatRef, Player
from bot.core.quiz import PostQuestion, Queued
from tests.core.conftest import Core

GROUP = ChatRef(-100, ChatKind.SUPERGROUP, "Study group")
ALICE = Player(1, "Alice")


async def _round_question(core: Core, size: int = 2) -> PostQuestion:
    started = await core.rounds.start(GROUP, None, ALICE.id, size)
    assert isinstance(started, Queued)
    (item,) = await core.outbox.due(GROUP.id)
    assert isinstance(item, PostQuestion)
    return item


async def test_a_transient_failure_waits_its_back_off_then_goes_again(core: Core) -> None:
    """After a 5xx the item is not due until its back-off has passed."""
    item = await _round_question(core)
    await core.outbox.transient(item, "Bad Gateway")
    assert await core.outbox.due(GROUP.id) == []
    assert await core.outbox.due_chats() == []
    core.clock.advance(seconds=BACKOFF_SECONDS[0])
    assert await core.outbox.due_chats() == [GROUP.id]
    (again,) = await core.outbox.due(GROUP.id)
    assert again.effect.id == item.effect.id
    assert again.effect.attempts == 1


async def test_a_429_waits_exactly_retry_after(core: Core) -> None:
    """Flood control: the item goes again after Telegram's retry_after, not the back-off."""
    item = await _round_question(core)
    await core.outbox.transient(item, "Too Many Requests", 17)
    core.clock.advance(seconds=16)
    assert await core.outbox.due(GROUP.id) == []
    core.clock.advance(seconds=1)
    assert len(await core.outbox.due(GROUP.id)) == 1


async def test_a_question_that_can_never_be_posted_ends_its_round_with_a_notice(
    core: Core,
) -> None:
    """Giving up on a question closes it, ends the round and tells the chat why."""
    item = await _round_question(core)
    for _ in BACKOFF_SECONDS:
        (item,) = await core.outbox.due(GROUP.id)  # type: ignore[assignment]
        await core.outbox.transient(item, "Bad Gateway")
        core.clock.advance(seconds=max(BACKOFF_SECONDS))
    (notice,) = await core.outbox.due(GROUP.id)
    assert isinstance(notice, Notice)
    assert "Bad Gateway" in notice.text
    ask = await core.store.get_ask(item.ask.id)
    assert ask is not None
    assert ask.is_closed
    assert await core.store.running_round(GROUP.id) is None
    assert isinstance(await core.rounds.start(GROUP, None, ALICE.id, 2), Queued)


async def test_a_question_waiting_for_a_retry_does_not_close_unseen(core: Core) -> None:
    """While its post waits for a retry a question cannot close; once posted it can."""
    item = await _round_question(core)
    await core.outbox.transient(item, "Too Many Requests", 120)
    core.clock.advance(seconds=61)
    assert await core.closer.close_due() == set()
    core.clock.advance(seconds=60)
    (again,) = await core.outbox.due(GROUP.id)
    await core.outbox.delivered(again, 500)
    core.clock.advance(seconds=60)
    assert await core.closer.close_due() == {GROUP.id}
    kinds = [i.effect.kind for i in await core.outbox.due(GROUP.id)]
    assert kinds == ["reveal", "question"]


async def test_a_removed_bot_drops_the_chats_work_and_its_daily_question(core: Core) -> None:
    """403: the chat is marked inactive and nothing more is owed there."""
    await _round_question(core)
    await core.outbox.chat_gone(GROUP.id, "Forbidden: bot was kicked from the group chat")
    assert await core.store.pending_effects(GROUP.id, 10) == []
    assert not await core.chats.is_active(GROUP.id)


async def test_a_migrated_group_takes_its_owed_messages_along(core: Core) -> None:
    """Group → supergroup: pending work and the running round now belong to the new id."""
    await _round_question(core)
    await core.outbox.chat_moved(GROUP.id, -1009)
    assert await core.store.pending_effects(GROUP.id, 10) == []
    assert [e.kind for e in await core.store.pending_effects(-1009, 10)] == ["question"]
    assert await core.store.running_round(-1009) is not None
