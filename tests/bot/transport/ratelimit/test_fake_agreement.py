"""The bot's limiter and the fake Bot API's flood model agree: bursts allowed, no 429s."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import timedelta
from typing import Any

import pytest
from telegram.error import RetryAfter
from telegram.ext import ApplicationBuilder

from bot.playground.botapi import BotApiServer, RateLimits
from bot.transport.ratelimit import RequestDropped, SlidingWindowRateLimiter
from bot.transport.request import AiohttpRequest
from tests.bot.transport.ratelimit.harness import FakeTime


def test_fake_private_chat_takes_three_at_once_then_waits_out_the_window() -> None:
    """The fake accepts 3 messages at once to a private chat, rejects a 4th for 3 s."""
    now = [100.0]
    limits = RateLimits(clock=lambda: now[0])
    assert [limits.check(7, is_group=False) for _ in range(3)] == [None] * 3
    assert limits.check(7, is_group=False) == 3
    assert limits.check(8, is_group=False) is None  # another chat has its own window
    now[0] += 2.9
    assert limits.check(7, is_group=False) == 1
    now[0] += 0.1
    assert [limits.check(7, is_group=False) for _ in range(4)] == [None, None, None, 3]
    assert limits.rejected == 3


def test_fake_private_burst_of_one_is_one_per_second() -> None:
    """RateLimits(private_burst=1) is the strict model: a second message within 1 s gets 429."""
    now = [0.0]
    limits = RateLimits(clock=lambda: now[0], private_burst=1)
    assert limits.check(7, is_group=False) is None
    assert limits.check(7, is_group=False) == 1
    now[0] += 1.0
    assert limits.check(7, is_group=False) is None


def test_fake_factor_shortens_the_private_window() -> None:
    """factor=10: three messages per 0.3 s to one private chat."""
    now = [0.0]
    limits = RateLimits(clock=lambda: now[0], factor=10)
    assert [limits.check(7, is_group=False) for _ in range(4)] == [None, None, None, 1]
    now[0] += 0.3
    assert limits.check(7, is_group=False) is None


@pytest.mark.parametrize("scale", [1, 10])
async def test_limiter_never_draws_a_429_from_the_fakes_model(scale: int) -> None:
    """Bursts to private chats, groups and @usernames in all classes, with latency: no 429."""
    fake_time = FakeTime()
    limits = RateLimits(factor=scale, clock=fake_time.clock)
    limiter = SlidingWindowRateLimiter(scale=scale, clock=fake_time.clock, sleep=fake_time.sleep)
    latency = 0.05 / scale

    async def send(chat_id: int | str, cls: str | None) -> None:
        async def callback(*args: Any, **kwargs: Any) -> bool:
            await fake_time.sleep(latency / 2)  # the server counts it somewhere in between
            if retry := limits.check(chat_id, is_group=isinstance(chat_id, int) and chat_id < 0):
                raise RetryAfter(timedelta(seconds=retry))
            await fake_time.sleep(latency / 2)
            return True

        args = {cls: True} if cls else None
        data = {"chat_id": chat_id}
        with contextlib.suppress(RequestDropped):  # a dropped droppable is fine, a 429 is not
            await limiter.process_request(callback, (), {}, "sendMessage", data, args)

    classes = [None, "bulk", "droppable"]
    chats: list[int | str] = [*range(1, 6), *range(-5, 0), "@channel"]
    sends = [send(chat, classes[i % 3]) for i in range(40) for chat in chats]
    await fake_time.run(*sends)
    assert limits.rejected == 0
    await limiter.shutdown()


async def test_private_bursts_through_the_fake_bot_api_get_no_429() -> None:
    """12 sends to each of 5 private chats through PTB and the fake (factor 20): no 429s."""
    async with BotApiServer(limits=RateLimits(factor=20)) as fake:
        app = (
            ApplicationBuilder()
            .token(fake.token)
            .base_url(f"{fake.url}/bot")
            .request(AiohttpRequest(connection_pool_size=64))
            .rate_limiter(SlidingWindowRateLimiter(scale=20))
            .updater(None)
            .build()
        )
        async with app:
            sends = [
                app.bot.send_message(chat_id=chat, text=str(i))
                for i in range(12)
                for chat in range(1, 6)
            ]
            sent = await asyncio.wait_for(asyncio.gather(*sends), timeout=10)
        assert fake.rejected_429 == 0
        assert len(sent) == 60
        assert [c.status for c in fake.calls_to("sendMessage")] == [200] * 60
