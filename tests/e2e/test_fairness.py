"""Pacing at Telegram's real limits: a chat whose window is full never delays another chat."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from random import Random

import pytest

from bot.app import RunningBot, running_bot
from bot.config import Settings
from bot.playground.botapi import ApiCall, BotApiServer, FakeChat, RateLimits
from tests.e2e.conftest import wait_for_polling
from tests.e2e.helpers.group import MEMBERS
from tests.fakes.clock import FakeClock

BUSY = FakeChat.supergroup(-1007000001, "Busy group", forum=True)
QUIET = FakeChat.supergroup(-1007000002, "Quiet group")


@pytest.fixture
async def real_limits_bot(
    fake: BotApiServer, settings: Settings, clock: FakeClock
) -> AsyncIterator[RunningBot]:
    fake.limits = RateLimits()
    real = settings.model_copy(update={"rate_limit_scale": 1.0})
    async with running_bot(real, clock=clock, poll_timeout=1, rng=Random(3)) as running:
        await wait_for_polling(fake)
        yield running


def _questions(fake: BotApiServer, chat: FakeChat) -> int:
    return sum(1 for c in fake.calls_to("sendMessage") if c.params.get("chat_id") == chat.id)


async def test_a_quiet_groups_reveal_does_not_wait_for_a_busy_groups_window(
    fake: BotApiServer, real_limits_bot: RunningBot, clock: FakeClock
) -> None:
    """With 25 questions queued in one group (20 a minute), another group's reveal goes now."""
    for topic, member in enumerate(MEMBERS[:25], start=1):
        fake.send_message(BUSY, member, "/quiz", thread_id=topic)
    await fake.wait_until(lambda: _questions(fake, BUSY) >= 20, 5, what="the busy window")
    fake.send_message(QUIET, MEMBERS[30], "/quiz")
    await fake.wait_for_call("sendMessage", lambda c: c.params.get("chat_id") == QUIET.id)
    for _ in range(40):  # until the bot has the question's message on record
        ask = await real_limits_bot.store.open_quiz_ask(QUIET.id, None, clock.now())
        if ask is not None and ask.message_id is not None:
            break
        await asyncio.sleep(0.05)
    clock.advance(seconds=301)

    def quiet_reveals() -> list[ApiCall]:
        return [c for c in fake.calls_to("editMessageText") if c.params.get("chat_id") == QUIET.id]

    for _ in range(30):  # ticks until the quiet question's post is on record and it closes
        await real_limits_bot.ticker.tick()
        if quiet_reveals():
            break
        await asyncio.sleep(0.05)
    reveal = await fake.wait_for_call(
        "editMessageText", lambda c: c.params.get("chat_id") == QUIET.id, timeout=3
    )
    assert "💡" in reveal.params["text"]
    assert _questions(fake, BUSY) < 25, "the busy group was still waiting for its window"
    assert fake.rejected_429 == 0
