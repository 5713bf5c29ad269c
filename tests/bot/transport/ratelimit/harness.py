"""Fake time and a recording harness for the rate limiter's tests."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Awaitable, Iterable
from dataclasses import dataclass, field
from typing import Any

from bot.transport.ratelimit import SlidingWindowRateLimiter

ALL = object()


class FakeTime:
    """A clock that moves only when the test moves it; ``sleep`` waits for that."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []  # every delay asked for, in order
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._seq = itertools.count()

    def clock(self) -> float:
        return self.now

    async def sleep(self, delay: float) -> None:
        self.sleeps.append(delay)
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
        droppable: bool = False,
        fail: list[BaseException] | None = None,
    ) -> object:
        async def callback(*args: Any, **kwargs: Any) -> bool:
            self.calls.append((self.time.now, chat_id, endpoint))
            if fail:
                raise fail.pop(0)
            return True

        args = {"bulk": True} if bulk else {"droppable": True} if droppable else None
        return await self.limiter.process_request(
            callback, (), {}, endpoint, {"chat_id": chat_id}, args
        )

    def times(self, chat_id: object = ALL) -> list[float]:
        return [t for t, c, _ in self.calls if chat_id is ALL or c == chat_id]


def busiest(times: Iterable[float], period: float) -> int:
    """Most requests in any window ``(t - period, t]``, as the fake server counts them."""
    ordered = sorted(times)
    return max((sum(t - period < u <= t for u in ordered) for t in ordered), default=0)
