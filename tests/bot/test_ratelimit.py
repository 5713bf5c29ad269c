"""SlidingWindowRateLimiter: windows, priorities and 429 retries, on a fake clock and for real."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Awaitable, Iterable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from telegram.error import RetryAfter
from telegram.ext import ApplicationBuilder

from bot.http import AiohttpRequest
from bot.ratelimit import SlidingWindowRateLimiter
from tests.fakes import FakeBotApi, RateLimits

ALL = object()


class FakeTime:
    """A clock that moves only when the test moves it; ``sleep`` waits for that."""

    def __init__(self) -> None:
        self.now = 0.0
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._seq = itertools.count()

    def clock(self) -> float:
        return self.now

    async def sleep(self, delay: float) -> None:
        future = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.now + max(delay, 0.0), next(self._seq), future))
        await future

    @staticmethod
    async def settle() -> None:
        for _ in range(50):
            await asyncio.sleep(0)

    def _next_deadline(self) -> float | None:
        while self._sleepers and self._sleepers[0][2].done():
            heapq.heappop(self._sleepers)
        return self._sleepers[0][0] if self._sleepers else None

    async def _jump(self, deadline: float) -> None:
        self.now = max(self.now, deadline)
        while self._sleepers and self._sleepers[0][0] <= self.now:
            future = heapq.heappop(self._sleepers)[2]
            if not future.done():
                future.set_result(None)
        await self.settle()

    async def advance(self, seconds: float) -> None:
        target = self.now + seconds
        await self.settle()
        while (deadline := self._next_deadline()) is not None and deadline <= target:
            await self._jump(deadline)
        await self._jump(target)

    async def run(self, *aws: Awaitable[Any]) -> list[Any]:
        """Await all of ``aws``, jumping the clock to each next sleeper whenever they stall."""
        tasks = [asyncio.ensure_future(a) for a in aws]
        await self.settle()
        while not all(t.done() for t in tasks):
            deadline = self._next_deadline()
            assert deadline is not None, "deadlock: nothing sleeps and nothing finishes"
            await self._jump(deadline)
        return [t.result() for t in tasks]


@dataclass
class Harness:
    """A limiter on fake time, and the time each request reached the (fake) server."""

    time: FakeTime = field(default_factory=FakeTime)
    calls: list[tuple[float, int | str | None, str]] = field(default_factory=list)
    limiter: SlidingWindowRateLimiter = field(init=False)

    def __post_init__(self) -> None:
        self.limiter = self.make()

    def make(self, **kwargs: Any) -> SlidingWindowRateLimiter:
        self.limiter = SlidingWindowRateLimiter(
            clock=self.time.clock, sleep=self.time.sleep, **kwargs
        )
        return self.limiter

    async def send(
        self,
        chat_id: int | str | None,
        *,
        endpoint: str = "sendMessage",
        bulk: bool = False,
        fail: list[BaseException] | None = None,
    ) -> object:
        async def callback(*args: Any, **kwargs: Any) -> bool:
            self.calls.append((self.time.now, chat_id, endpoint))
            if fail:
                raise fail.pop(0)
            return True

        return await self.limiter.process_request(
            callback, (), {}, endpoint, {"chat_id": chat_id}, {"bulk": True} if bulk else None
        )

    def times(self, chat_id: object = ALL) -> list[float]:
        return [t for t, c, _ in self.calls if chat_id is ALL or c == chat_id]


def busiest(times: Iterable[float], period: float) -> int:
    """Most requests in any window ``(t - period, t]``, as the fake server counts them."""
    ordered = sorted(times)
    return max((sum(t - period < u <= t for u in ordered) for t in ordered), default=0)


@pytest.fixture
def h() -> Harness:
    return Harness()


async def test_burst_to_distinct_chats_stays_within_30_per_second(h: Harness) -> None:
    """100 sends at once to 100 private chats: ≤30 in any second, all through at ≈30/s."""
    await h.time.run(*(h.send(chat) for chat in range(1, 101)))
    assert len(h.calls) == 100
    assert busiest(h.times(), 1.0) == 30
    assert h.times()[:30] == [0.0] * 30
    assert 3.0 < max(h.times()) < 3.2


async def test_private_chat_one_per_second_without_blocking_others(h: Harness) -> None:
    """Three sends to one private chat are a second apart; other chats go at once."""
    busy = [asyncio.ensure_future(h.send(7)) for _ in range(3)]
    await h.time.run(h.send(8), h.send(9))
    assert h.times(8) == h.times(9) == [0.0]
    await h.time.run(*busy)
    first, second, third = h.times(7)
    assert first == 0.0
    assert 1.0 < second - first < 1.1
    assert 1.0 < third - second < 1.1


async def test_group_twenty_per_minute_without_blocking_others(h: Harness) -> None:
    """25 sends to a group: 20 at once, 5 after a minute; another group and a user wait not."""
    busy = [asyncio.ensure_future(h.send(-100)) for _ in range(25)]
    await h.time.run(h.send(-200), h.send(5), h.send("@channel"))
    assert h.times(-200) == h.times(5) == h.times("@channel") == [0.0]
    await h.time.run(*busy)
    assert h.times(-100)[:20] == [0.0] * 20
    assert all(60.0 < t < 62.0 for t in h.times(-100)[20:])
    assert busiest(h.times(-100), 60.0) == 20


async def test_interactive_request_overtakes_queued_bulk(h: Harness) -> None:
    """With the window full and bulk queued, a later interactive send goes first."""
    await h.time.run(*(h.send(chat) for chat in range(1, 31)))
    bulk = [asyncio.ensure_future(h.send(chat, bulk=True)) for chat in range(101, 111)]
    await h.time.advance(0.5)
    assert len(h.calls) == 30
    await h.time.run(h.send(200), *bulk)
    assert [c for _, c, _ in h.calls[30:]] == [200, *range(101, 111)]
    assert 1.0 < h.calls[30][0] < 1.1


async def test_bulk_alone_is_not_starved(h: Harness) -> None:
    """Bulk requests with no interactive traffic still go at the full rate."""
    await h.time.run(*(h.send(chat, bulk=True) for chat in range(1, 61)))
    assert h.times()[:30] == [0.0] * 30
    assert busiest(h.times(), 1.0) == 30
    assert max(h.times()) < 1.1


async def test_retry_after_is_waited_and_retried(h: Harness) -> None:
    """Two 429s with retry_after 3 s: the request is sent again after each, then succeeds."""
    fail: list[BaseException] = [RetryAfter(timedelta(seconds=3)), RetryAfter(timedelta(seconds=3))]
    assert await h.time.run(h.send(1, fail=fail)) == [True]
    assert h.times() == [0.0, 3.0, 6.0]


async def test_retry_after_is_raised_after_max_retries(h: Harness) -> None:
    """After max_retries retries the RetryAfter reaches the caller."""
    h.make(max_retries=2)
    fail: list[BaseException] = [RetryAfter(timedelta(seconds=1)) for _ in range(3)]
    with pytest.raises(RetryAfter):
        await h.time.run(h.send(1, fail=fail))
    assert len(h.calls) == 3


async def test_retry_after_holds_back_bulk_but_not_interactive(h: Harness) -> None:
    """During a retry_after, other bulk sends wait; interactive ones to other chats do not."""
    failing = asyncio.ensure_future(h.send(1, fail=[RetryAfter(timedelta(seconds=2))]))
    await h.time.settle()
    await h.time.run(h.send(2, bulk=True), h.send(3), failing)
    assert h.times(3) == [0.0]
    assert h.times(2) == [2.0]
    assert h.times(1) == [0.0, 2.0]


async def test_uncounted_methods_pass_while_window_is_full(h: Harness) -> None:
    """answerCallbackQuery, getMe and sendChatAction never wait, even with the window full."""
    await h.time.run(*(h.send(chat) for chat in range(1, 31)))
    waiting = asyncio.ensure_future(h.send(99))
    await h.send(None, endpoint="answerCallbackQuery")
    await h.send(None, endpoint="getMe")
    await h.send(1, endpoint="sendChatAction")
    assert h.time.now == 0.0
    assert len(h.calls) == 33
    assert not waiting.done()
    await h.time.run(waiting)


async def test_cancelled_waiter_frees_its_place(h: Harness) -> None:
    """A queued send that is cancelled is skipped; the ones behind it still go."""
    await h.time.run(*(h.send(chat) for chat in range(1, 31)))
    doomed = asyncio.ensure_future(h.send(50))
    await h.time.settle()
    doomed.cancel()
    await h.time.run(*(h.send(chat) for chat in range(51, 81)))
    assert doomed.cancelled()
    assert 50 not in [c for _, c, _ in h.calls]
    assert busiest(h.times(), 1.0) == 30
    assert max(h.times()) < 1.1


async def test_scale_10_allows_300_per_second(h: Harness) -> None:
    """scale=10 shortens the windows tenfold, like the fake's factor: 30 per 0.1 s = 300/s."""
    h.make(scale=10)
    await h.time.run(*(h.send(chat) for chat in range(1, 601)))
    assert busiest(h.times(), 0.1) == 30
    assert 290 <= busiest(h.times(), 1.0) <= 300
    assert 1.9 < max(h.times()) < 2.0  # 20 batches of 30, just over 0.1 s apart
    await h.time.run(h.send(700), h.send(700))
    assert 0.1 < h.times(700)[1] - h.times(700)[0] < 0.11


async def test_idle_chats_are_forgotten(h: Harness) -> None:
    """After a fan-out to 10,000 chats, their state is dropped once their windows are over."""
    h.make(scale=100)
    await h.time.run(*(h.send(chat, bulk=True) for chat in range(1, 10_001)))
    assert len(h.calls) == 10_000
    await h.time.advance(61)
    await h.time.run(h.send(-1))
    assert len(h.limiter._chats) == 1


async def test_no_429_from_the_fake_bot_api_at_full_speed() -> None:
    """60 sends to 60 private chats through PTB and the fake server (factor 20): no 429s."""
    async with FakeBotApi(limits=RateLimits(factor=20)) as fake:
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
            sends = (app.bot.send_message(chat_id=chat, text="hi") for chat in range(1, 61))
            sent = await asyncio.wait_for(asyncio.gather(*sends), timeout=5)
        assert fake.rejected_429 == 0
        assert sorted(m.chat_id for m in sent) == list(range(1, 61))
        assert [c.status for c in fake.calls_to("sendMessage")] == [200] * 60
