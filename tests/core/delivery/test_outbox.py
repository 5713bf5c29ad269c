"""The one outbox: kinds registered by their use cases, owed messages recorded in the owing
transaction, the sender told only after the commit, and one policy for retries and 403s."""

from __future__ import annotations

import pytest

from bot.core.delivery import BACKOFF_SECONDS, Notice, UnknownKindError
from bot.core.delivery.messages import NoticeKind
from bot.core.model import ChatKind, ChatRef, NewEffect
from tests.core.conftest import Core

GROUP = ChatRef(-100, ChatKind.SUPERGROUP, "Study group")


async def _known(core: Core) -> None:
    async with core.store.transaction() as writes:
        await writes.upsert_chat(GROUP, core.clock.now())


async def test_every_use_case_registers_its_kinds_once(core: Core) -> None:
    """The wiring registers each kind of owed message exactly once, by name."""
    names = [kind.name for kind in core.outbox.kinds()]
    assert len(names) == len(set(names))
    assert {"question", "reveal", "explanation", "summary", "daily", "reply", "notice"} <= set(
        names
    )
    with pytest.raises(ValueError, match="notice"):
        core.outbox.register(NoticeKind())


async def test_an_effect_of_a_kind_nobody_registered_is_refused(core: Core) -> None:
    """Owing a kind no use case defined is a bug, caught before anything is written."""
    await _known(core)
    with pytest.raises(UnknownKindError):
        async with core.store.transaction() as writes:
            await core.outbox.owe(writes, NewEffect(GROUP.id, "shout"))
    assert await core.store.pending_effects(GROUP.id, 10) == []


async def test_the_sender_is_told_after_the_commit_and_never_for_a_rollback(core: Core) -> None:
    """The listener hears of the chat once the owing transaction committed; a transaction
    that rolls back tells it nothing (and records nothing)."""
    await _known(core)
    heard: list[int] = []
    core.outbox.listen(heard.append)
    async with core.store.transaction() as writes:
        await core.outbox.owe(writes, NewEffect(GROUP.id, "notice", text="hi"))
        assert heard == []
    assert heard == [GROUP.id]

    async def failing() -> None:
        async with core.store.transaction() as writes:
            await core.outbox.owe(writes, NewEffect(GROUP.id, "notice", text="lost"))
            raise RuntimeError("the use case failed")

    with pytest.raises(RuntimeError):
        await failing()
    assert heard == [GROUP.id]
    assert [e.text for e in await core.store.pending_effects(GROUP.id, 10)] == ["hi"]


async def test_bulk_messages_are_left_to_the_feeder(core: Core) -> None:
    """A bulk effect (a fan-out's) does not start the chat's queue at once."""
    await _known(core)
    heard: list[int] = []
    core.outbox.listen(heard.append)
    async with core.store.transaction() as writes:
        await core.outbox.owe(writes, NewEffect(GROUP.id, "notice", text="bulk", bulk=True))
    assert heard == []
    assert await core.outbox.due_chats() == []
    assert await core.outbox.due_chats(bulk=True) == [GROUP.id]


async def test_a_notice_given_up_after_every_back_off_is_failed_once(core: Core) -> None:
    """The same retry policy for every kind: BACKOFF_SECONDS, then given up for good."""
    await _known(core)
    async with core.store.transaction() as writes:
        await core.outbox.owe(writes, NewEffect(GROUP.id, "notice", text="hi"))
    for wait in BACKOFF_SECONDS:
        (item,) = await core.outbox.due(GROUP.id)
        assert isinstance(item, Notice)
        await core.outbox.transient(item, "Bad Gateway")
        core.clock.advance(seconds=wait)
    assert await core.outbox.due(GROUP.id) == []
    assert await core.store.pending_effects(GROUP.id, 10) == []
