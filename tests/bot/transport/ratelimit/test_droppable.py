"""Droppable requests (cosmetic edits): sent at once if there is headroom, else RequestDropped."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from telegram.error import RetryAfter, TelegramError

from bot.transport.ratelimit import RequestDropped
from tests.bot.transport.ratelimit.harness import Harness


@pytest.fixture
def h() -> Harness:
    return Harness()


async def test_droppable_goes_at_once_with_headroom(h: Harness) -> None:
    """A droppable edit to a quiet group is sent at once and returns the callback's result."""
    assert await h.send(-100, endpoint="editMessageText", droppable=True) is True
    assert h.times(-100) == [0.0]


async def test_droppable_leaves_a_groups_last_five_slots_to_others(h: Harness) -> None:
    """Droppables stop at 15 of a group's 20 slots; the last 5 take interactive sends at once."""
    await h.time.run(*(h.send(-100) for _ in range(10)))
    for _ in range(5):
        await h.send(-100, droppable=True)
    with pytest.raises(RequestDropped):
        await h.send(-100, droppable=True)
    await h.time.run(*(h.send(-100) for _ in range(5)))
    assert h.times(-100) == [0.0] * 20
    assert h.time.sleeps == []


async def test_droppable_reserve_is_configurable(h: Harness) -> None:
    """droppable_reserve=0 lets droppables use all 20 slots of a group, and no more."""
    h.make(droppable_reserve=0)
    for _ in range(20):
        await h.send(-100, droppable=True)
    with pytest.raises(RequestDropped):
        await h.send(-100, droppable=True)
    assert len(h.times(-100)) == 20


async def test_droppable_in_a_private_chat_needs_a_free_slot(h: Harness) -> None:
    """In a private chat a droppable takes the burst's last free slot; with none it is dropped."""
    await h.time.run(h.send(7), h.send(7))
    await h.send(7, droppable=True)
    with pytest.raises(RequestDropped):
        await h.send(7, droppable=True)
    assert h.times(7) == [0.0] * 3


async def test_droppable_is_dropped_at_once_when_the_overall_window_is_full(h: Harness) -> None:
    """30 sends in the last second: a droppable to a quiet chat is neither sent nor waited for."""
    await h.time.run(*(h.send(chat) for chat in range(1, 31)))
    with pytest.raises(TelegramError) as info:
        await h.send(-100, droppable=True)
    assert isinstance(info.value, RequestDropped)
    assert len(h.calls) == 30
    assert h.time.now == 0.0
    assert h.time.sleeps == []


async def test_droppable_never_takes_a_slot_a_queued_request_is_due(h: Harness) -> None:
    """When a slot frees with a send queued for it, a droppable that comes first is dropped."""
    await h.time.run(*(h.send(chat) for chat in range(1, 31)))
    queued = asyncio.ensure_future(h.send(31, bulk=True))
    await h.time.settle()
    h.time.now = 1.001  # the overall window has room; the dispatcher has not run yet
    with pytest.raises(RequestDropped):
        await h.send(32, droppable=True)
    await h.time.run(queued)
    assert h.times(31) == [1.001]
    assert h.times(32) == []


async def test_droppable_is_dropped_while_a_429_pause_holds_bulk(h: Harness) -> None:
    """After a 429 elsewhere, droppables are dropped until the pause ends; interactive go."""
    failing = asyncio.ensure_future(h.send(1, fail=[RetryAfter(timedelta(seconds=2))]))
    await h.time.settle()
    with pytest.raises(RequestDropped):
        await h.send(3, droppable=True)
    await h.send(4)
    await h.time.run(failing)
    await h.send(3, droppable=True)
    assert h.times(4) == [0.0]
    assert h.times(3) == [2.0]


async def test_droppable_hit_by_429_is_dropped_not_retried(h: Harness) -> None:
    """A 429 on a droppable raises RequestDropped at once and pauses that chat's next send."""
    with pytest.raises(RequestDropped) as info:
        await h.send(-100, droppable=True, fail=[RetryAfter(timedelta(seconds=3))])
    assert isinstance(info.value.__cause__, RetryAfter)
    assert h.times(-100) == [0.0]
    await h.time.run(h.send(-100))
    assert h.times(-100) == [0.0, 3.0]


async def test_droppable_flag_on_an_uncounted_method_just_passes(h: Harness) -> None:
    """answerCallbackQuery is never limited, droppable or not, even with the window full."""
    await h.time.run(*(h.send(chat) for chat in range(1, 31)))
    assert await h.send(1, endpoint="answerCallbackQuery", droppable=True) is True
