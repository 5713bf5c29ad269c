"""Keeps Bot API calls within Telegram's flood limits: sliding windows, interactive before bulk.

A counted request is admitted when the overall window and its chat's window(s) each hold fewer
than their limit, and then holds a slot in all of them until ``period`` after its *response*.
Telegram counts it on arrival, between our send and our response, so no server-side window can
hold more than the limit whatever the latency. ``rate_limit_args={"bulk": True}`` marks bulk.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

__all__ = ["RateLimitArgs", "SlidingWindowRateLimiter", "counts_against_limits"]

RateLimitArgs = dict[str, Any]
JSONDict = dict[str, Any]
ChatKey = int | str | None
_INTERACTIVE, _BULK = 0, 1
_MIN_SWEEP = 1024  # chats kept before idle ones are swept by count
_MAX_IDLE_WAIT = 0.05  # seconds the dispatcher sleeps at most between checks


def counts_against_limits(endpoint: str) -> bool:
    """Message-producing methods count; getUpdates, answerCallbackQuery, getMe... do not."""
    return endpoint.startswith(("send", "edit", "copy", "forward", "stop")) and (
        endpoint != "sendChatAction"
    )


@dataclass(eq=False)
class _Window:
    limit: int
    period: float
    inflight: int = 0
    done: deque[float] = field(default_factory=deque)  # response times, oldest first

    def free_at(self, now: float) -> float | None:
        """When a slot is free: ``now`` if one is, None while in-flight requests fill it."""
        while self.done and self.done[0] + self.period <= now:
            self.done.popleft()
        if self.inflight + len(self.done) < self.limit:
            return now
        return self.done[0] + self.period if self.done else None

    def idle(self, now: float) -> bool:
        return self.inflight == 0 and (not self.done or self.done[-1] + self.period <= now)


@dataclass(eq=False)
class _Chat:
    windows: tuple[_Window, ...]
    # Waiters by class (interactive, bulk), each FIFO; cancelled ones are skipped lazily.
    waiting: tuple[deque[asyncio.Future[None]], ...] = field(
        default_factory=lambda: (deque(), deque())
    )
    queued: list[bool] = field(default_factory=lambda: [False, False])  # in a ready queue
    timer: bool = False  # a wake-up for this chat is in the timer heap
    paused_until: float = 0.0

    def has(self, cls: int) -> bool:
        queue = self.waiting[cls]
        while queue and queue[0].done():
            queue.popleft()
        return bool(queue)

    def idle(self, now: float) -> bool:
        return not (self.has(_INTERACTIVE) or self.has(_BULK)) and (
            self.paused_until <= now and all(w.idle(now) for w in self.windows)
        )


def _chat_key(chat_id: object) -> ChatKey:
    if isinstance(chat_id, str) and chat_id.removeprefix("-").isdigit():
        return int(chat_id)  # as the server sees it
    return chat_id if isinstance(chat_id, int | str) else None


class SlidingWindowRateLimiter(BaseRateLimiter[RateLimitArgs]):
    """Overall, per-private-chat and per-group sliding windows; retries 429s.

    ``scale`` multiplies every rate by shortening the windows (as ``RateLimits.factor`` in the
    fake does); ``margin`` lengthens each window by that fraction. Slots are counted from the
    response, after the server has counted the request, so the margin only keeps two sends
    from landing exactly one window apart.
    """

    def __init__(
        self,
        *,
        overall_per_second: int = 30,
        private_per_second: int = 1,
        group_per_minute: int = 20,
        scale: float = 1.0,
        margin: float = 0.001,
        max_retries: int = 5,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if scale <= 0 or margin < 0 or max_retries < 0:
            raise ValueError("scale must be > 0, margin and max_retries >= 0")
        stretch = (1.0 + margin) / scale
        self._private = (private_per_second, stretch)
        self._group = (group_per_minute, 60.0 * stretch)
        self._overall = _Window(overall_per_second, stretch)
        self._max_retries, self._clock, self._sleep = max_retries, clock, sleep
        self._chats: dict[ChatKey, _Chat] = {}
        self._sweep_at, self._next_sweep = _MIN_SWEEP, 0.0
        self._ready: tuple[deque[_Chat], deque[_Chat]] = (deque(), deque())
        self._timers: list[tuple[float, int, _Chat]] = []
        self._seq = itertools.count()
        self._pending = 0  # waiters not yet admitted or cancelled
        self._bulk_paused_until = 0.0
        self._wake: asyncio.Event | None = None
        self._dispatcher: asyncio.Task[None] | None = None

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        if self._dispatcher is not None:
            self._dispatcher.cancel()
            await asyncio.gather(self._dispatcher, return_exceptions=True)
            self._dispatcher = None

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | JSONDict | list[JSONDict]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: RateLimitArgs | None,
    ) -> bool | JSONDict | list[JSONDict]:
        if not counts_against_limits(endpoint):
            return await callback(*args, **kwargs)
        cls = _BULK if rate_limit_args and rate_limit_args.get("bulk") else _INTERACTIVE
        key = _chat_key(data.get("chat_id"))
        attempt = 0
        while True:
            chat = await self._acquire(key, cls)
            try:
                return await callback(*args, **kwargs)
            except RetryAfter as error:
                if attempt == self._max_retries:
                    raise
                attempt += 1
                wait = error.retry_after  # a timedelta under PTB_TIMEDELTA=1, else int seconds
                delay = wait.total_seconds() if isinstance(wait, timedelta) else float(wait)
                until = self._clock() + delay
                # The chat's or the overall server window is full: hold that chat and all bulk.
                chat.paused_until = max(chat.paused_until, until)
                self._bulk_paused_until = max(self._bulk_paused_until, until)
            finally:
                self._release(chat)
            await self._sleep(delay)

    # -- admission ---------------------------------------------------------------------------

    async def _acquire(self, key: ChatKey, cls: int) -> _Chat:
        chat = self._chat(key)
        future = asyncio.get_running_loop().create_future()
        chat.waiting[cls].append(future)
        self._pending += 1
        self._promote(chat, self._clock())
        self._pump()
        if not future.done():
            self._kick()
            try:
                await future
            except asyncio.CancelledError:
                if future.cancelled():
                    self._pending -= 1
                else:  # admitted just as we were cancelled: give the slot back
                    self._release(chat)
                raise
        return chat

    def _release(self, chat: _Chat) -> None:
        now = self._clock()
        for window in (self._overall, *chat.windows):
            window.inflight -= 1
            window.done.append(now)
        self._promote(chat, now)
        self._pump()
        self._kick()

    def _chat(self, key: ChatKey) -> _Chat:
        chat = self._chats.get(key)
        if chat is None:
            now = self._clock()
            # Amortised O(1): memory stays within about twice the chats active in a minute.
            if len(self._chats) >= self._sweep_at or now >= self._next_sweep:
                self._chats = {k: c for k, c in self._chats.items() if not c.idle(now)}
                self._sweep_at = max(_MIN_SWEEP, 2 * len(self._chats))
                self._next_sweep = now + self._group[1]
            chat = self._chats[key] = _Chat(self._windows(key))
        return chat

    def _windows(self, key: ChatKey) -> tuple[_Window, ...]:
        if key is None:
            return ()
        if isinstance(key, str):  # a @username: a channel to Telegram, a user to the fake
            return _Window(*self._private), _Window(*self._group)
        return (_Window(*(self._group if key < 0 else self._private)),)

    def _promote(self, chat: _Chat, now: float) -> None:
        """Queue the chat for an overall slot if its own windows have room, else set a timer."""
        has = (chat.has(_INTERACTIVE), chat.has(_BULK))
        if not any(has):
            return
        at = max(now, chat.paused_until)
        for window in chat.windows:
            free = window.free_at(now)
            if free is None:
                return  # the release of an in-flight request promotes it again
            at = max(at, free)
        if at > now:
            if not chat.timer:
                chat.timer = True
                heapq.heappush(self._timers, (at, next(self._seq), chat))
            return
        cls = _INTERACTIVE if has[_INTERACTIVE] else _BULK  # in a chat, interactive goes first
        if not chat.queued[cls]:
            chat.queued[cls] = True
            self._ready[cls].append(chat)

    def _pump(self) -> None:
        """Admit every waiter that can go now, interactive before bulk."""
        now = self._clock()
        while self._timers and self._timers[0][0] <= now:
            due = heapq.heappop(self._timers)[2]
            due.timer = False
            self._promote(due, now)
        while self._overall.free_at(now) == now:
            chat = self._next_ready(_INTERACTIVE, now)
            cls = _INTERACTIVE
            if chat is None and now >= self._bulk_paused_until:
                chat, cls = self._next_ready(_BULK, now), _BULK
            if chat is None:
                return
            waiter = chat.waiting[cls].popleft()
            if waiter.done():  # cancelled while waiting; its count was taken back then
                self._promote(chat, now)
                continue
            waiter.set_result(None)
            self._pending -= 1
            for window in (self._overall, *chat.windows):
                window.inflight += 1
            self._promote(chat, now)

    def _next_ready(self, cls: int, now: float) -> _Chat | None:
        ready = self._ready[cls]
        while ready:
            chat = ready.popleft()
            chat.queued[cls] = False
            if not chat.has(cls) or (cls == _BULK and chat.has(_INTERACTIVE)):
                self._promote(chat, now)
                continue
            if chat.paused_until <= now and all(w.free_at(now) == now for w in chat.windows):
                return chat
            self._promote(chat, now)  # filled since it was queued: wait for its timer
        return None

    # -- the dispatcher: wakes waiters when a window frees up ----------------------------------

    def _kick(self) -> None:
        if self._wake is not None:
            self._wake.set()
        if self._pending and (self._dispatcher is None or self._dispatcher.done()):
            self._wake = asyncio.Event()
            self._dispatcher = asyncio.create_task(self._dispatch())

    async def _dispatch(self) -> None:
        """Sleep until the next timer, overall slot or end of a bulk pause, or until woken."""
        assert self._wake is not None
        while self._pending:
            self._wake.clear()
            self._pump()
            now = self._clock()
            deadlines = [self._timers[0][0]] if self._timers else []
            if self._ready[_INTERACTIVE] or self._ready[_BULK]:
                deadlines.append(self._overall.free_at(now) or now)
                if self._ready[_BULK] and self._bulk_paused_until > now:
                    deadlines.append(self._bulk_paused_until)
            waits: set[asyncio.Future[Any]] = {asyncio.ensure_future(self._wake.wait())}
            # Never wait unboundedly: a missed wake-up then costs a short delay, not a stall.
            deadlines = [d for d in deadlines if d > now] + [now + _MAX_IDLE_WAIT]
            waits.add(asyncio.ensure_future(self._sleep(min(deadlines) - now)))
            try:
                await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for waiting in waits:
                    waiting.cancel()
