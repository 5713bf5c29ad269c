"""Keeps Bot API calls within Telegram's flood limits: sliding windows, three priority classes.

A counted request is admitted when the overall window and its chat's window(s) each hold fewer
than their limit, and then holds a slot in all of them until ``period`` after its *response*.
Telegram counts it on arrival, between our send and our response, so no server-side window can
hold more than the limit whatever the latency.

``rate_limit_args`` sets the class. Interactive (the default) goes first. ``{"bulk": True}``
waits while an interactive request could use the slot, and during a 429 pause.
``{"droppable": True}`` (cosmetic edits such as live answer counts) never waits: it is sent at
once if there is headroom, else not at all and :class:`RequestDropped` is raised at once.
"""

from __future__ import annotations

import asyncio
import functools
import heapq
import itertools
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from datetime import timedelta
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

from bot.transport.ratelimit.windows import (
    _BULK,
    _INTERACTIVE,
    _MIN_SWEEP,
    _SAFETY_WAKE,
    ChatKey,
    RequestDropped,
    _Chat,
    _chat_key,
    _fits,
    _resolve,
    _Window,
    counts_against_limits,
    divided,
)

RateLimitArgs = dict[str, Any]
JSONDict = dict[str, Any]


class SlidingWindowRateLimiter(BaseRateLimiter[RateLimitArgs]):
    """Overall, per-private-chat and per-group sliding windows; retries 429s.

    A private chat may burst: ``private_burst`` per ``private_burst / private_per_second``
    seconds (3 per 3 s), so a reveal and the next question go together after a quiet spell
    while the average stays at 1/s. A window, not a token bucket (3, refilling 1/s): holding
    each slot until a period after the response bounds the server's count whatever the
    latency, where a bucket would need the unknown time the server counted each request; and
    the fake Bot API models the same window. A droppable request leaves a group's last
    ``droppable_reserve`` slots free (5 of 20: questions and reveals always find room).

    ``scale`` multiplies every rate by shortening the windows (as ``RateLimits.factor`` in the
    fake does); ``margin`` lengthens each window by that fraction, so that two sends never land
    exactly one window apart.
    """

    def __init__(
        self,
        *,
        overall_per_second: int = 30,
        private_per_second: int = 1,
        group_per_minute: int = 20,
        private_burst: int = 3,
        droppable_reserve: int = 5,
        scale: float = 1.0,
        margin: float = 0.001,
        max_retries: int = 5,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if min(margin, max_retries, droppable_reserve) < 0 or min(scale, private_per_second) <= 0:
            raise ValueError("scale, private_per_second > 0; margin, retries, reserve >= 0")
        if private_burst < 1:
            raise ValueError("private_burst must be at least 1")
        stretch = (1.0 + margin) / scale
        self._private = (private_burst, private_burst / private_per_second * stretch, 0)
        self._group = (group_per_minute, 60.0 * stretch, droppable_reserve)
        self._overall = _Window(overall_per_second, stretch)
        self._whole = (self._private, self._group, (overall_per_second, stretch))
        self._replicas = 1
        self._max_retries, self._clock, self._sleep = max_retries, clock, sleep
        self._chats: dict[ChatKey, _Chat] = {}
        self._sweep_at, self._next_sweep = _MIN_SWEEP, 0.0
        self._ready: tuple[deque[_Chat], deque[_Chat]] = (deque(), deque())
        self._timers: list[tuple[float, int, _Chat]] = []
        self._seq = itertools.count()
        self._pending = 0  # waiters not yet admitted or cancelled
        self._bulk_paused_until = 0.0
        self._alarm = math.inf  # when the dispatcher wakes unless woken earlier
        self._wake: asyncio.Future[None] | None = None
        self._dispatcher: asyncio.Task[None] | None = None

    def set_share(self, replicas: int) -> None:
        """Keep to 1/`replicas` of Telegram's limits (replicas sending for one bot): the overall
        and each group's window hold their limit divided, so that the replicas together stay
        within it; a private chat's burst of 3 cannot be divided, so its window is lengthened
        instead (the average is exact, a burst from two replicas at once is not)."""
        replicas = max(1, replicas)
        if replicas == self._replicas:
            return
        self._replicas = replicas
        (burst, private_period, _), (group_limit, group_period, reserve), overall = self._whole
        self._private = (burst, private_period * replicas, 0)
        limit, period = divided(group_limit, group_period, replicas)
        self._group = (limit, period, reserve * limit // group_limit)
        self._overall.limit, self._overall.period = divided(*overall, replicas)
        for chat in self._chats.values():
            for window in chat.windows:
                window.limit, window.period, window.reserve = (
                    self._group if window.group else self._private
                )
            chat.span = max(window.period for window in chat.windows) if chat.windows else 0.0
        self._arm(self._clock())

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
        key, attempt = _chat_key(data.get("chat_id")), 0
        droppable = bool(rate_limit_args and rate_limit_args.get("droppable"))
        cls = _BULK if rate_limit_args and rate_limit_args.get("bulk") else _INTERACTIVE
        while True:
            chat = self._take_or_drop(key) if droppable else await self._acquire(key, cls)
            try:
                return await callback(*args, **kwargs)
            except RetryAfter as error:
                if attempt == self._max_retries and not droppable:
                    raise
                attempt += 1
                delay = self._pause(chat, error)
                if droppable:
                    raise RequestDropped(f"Dropped: {error.message}") from error
            finally:
                self._release(chat)
            await self._sleep(delay)

    def _pause(self, chat: _Chat, error: RetryAfter) -> float:
        """The chat's or the overall server window is full: hold that chat and all bulk."""
        wait = error.retry_after  # a timedelta under PTB_TIMEDELTA=1, else int seconds
        delay = wait.total_seconds() if isinstance(wait, timedelta) else float(wait)
        until = self._clock() + delay
        chat.paused_until = max(chat.paused_until, until)
        chat.busy_until = max(chat.busy_until, until)
        self._bulk_paused_until = max(self._bulk_paused_until, until)
        return delay

    # -- admission ---------------------------------------------------------------------------

    def _first(self, chat: _Chat, now: float) -> bool:
        """No waiter is ready or due anywhere, nor waits in ``chat``; the chat is not paused."""
        ready, timers = self._ready, self._timers
        if ready[0] or ready[1] or (timers and timers[0][0] <= now) or chat.paused_until > now:
            return False
        return not (chat.has(_INTERACTIVE) or chat.has(_BULK))

    def _take_or_drop(self, key: ChatKey) -> _Chat:
        now = self._clock()
        chat = self._chat(key, now)
        if now < self._bulk_paused_until or not self._first(chat, now):
            raise RequestDropped("Droppable request not sent: others wait, or a 429 holds")
        if any(w.used(now) + w.reserve >= w.limit for w in chat.all):
            raise RequestDropped("Droppable request not sent: no headroom in the window")
        self._take(chat)
        return chat

    async def _acquire(self, key: ChatKey, cls: int) -> _Chat:
        now = self._clock()
        chat = self._chat(key, now)
        if (
            (cls == _INTERACTIVE or now >= self._bulk_paused_until)
            and self._first(chat, now)
            and _fits(chat.all, now)
        ):
            self._take(chat)  # what the pump would do at once, without queueing
            return chat
        future = asyncio.get_running_loop().create_future()
        chat.waiting[cls].append(future)
        self._pending += 1
        self._promote(chat, now)
        self._pump(now)
        if not future.done():
            self._arm(now)
            try:
                await future
            except asyncio.CancelledError:
                if future.cancelled():
                    self._pending -= 1
                else:  # admitted just as we were cancelled: give the slot back
                    self._release(chat)
                raise
        return chat

    def _take(self, chat: _Chat) -> None:
        for window in chat.all:
            window.inflight += 1
        chat.inflight += 1

    def _release(self, chat: _Chat) -> None:
        now = self._clock()
        for window in chat.all:
            window.inflight -= 1
            window.done.append(now)
        chat.inflight -= 1
        if now + chat.span > chat.busy_until:
            chat.busy_until = now + chat.span
        if self._pending:
            self._promote(chat, now)
            self._pump(now)
            self._arm(now)

    def _chat(self, key: ChatKey, now: float) -> _Chat:
        chat = self._chats.get(key)
        if chat is None:
            # Amortised O(1): memory stays within about twice the chats active in a minute.
            if len(self._chats) >= self._sweep_at or now >= self._next_sweep:
                self._chats = {k: c for k, c in self._chats.items() if not c.idle(now)}
                self._sweep_at = max(_MIN_SWEEP, 2 * len(self._chats))
                self._next_sweep = now + self._group[1]
            if key is None:
                chat = _Chat((), self._overall, 0.0)
            elif isinstance(key, str):  # a @username: a channel to Telegram, a user to the fake
                windows = _Window(*self._private), _Window(*self._group, group=True)
                chat = _Chat(windows, self._overall, max(self._private[1], self._group[1]))
            else:
                limits = self._group if key < 0 else self._private
                chat = _Chat((_Window(*limits, group=key < 0),), self._overall, limits[1])
            self._chats[key] = chat
        return chat

    def _promote(self, chat: _Chat, now: float) -> None:
        """Queue the chat for an overall slot if its own windows have room, else set a timer."""
        waiting = chat.waiting  # a cancelled waiter here costs a pass, caught by has()
        cls = _INTERACTIVE if waiting[0] else _BULK  # in a chat, interactive goes first
        if not waiting[cls]:
            return
        at = chat.paused_until if chat.paused_until > now else now
        for window in chat.windows:
            free = window.free_at(now)
            if free is None:
                return  # the release of an in-flight request promotes it again
            if free > at:
                at = free
        if at > now:
            if not chat.timer:
                chat.timer = True
                heapq.heappush(self._timers, (at, next(self._seq), chat))
        elif not chat.queued[cls]:
            chat.queued[cls] = True
            self._ready[cls].append(chat)

    def _pump(self, now: float) -> None:
        """Admit every waiter that can go at ``now``, interactive before bulk."""
        timers, overall = self._timers, self._overall
        while timers and timers[0][0] <= now:
            due = heapq.heappop(timers)[2]
            due.timer = False
            self._promote(due, now)
        while overall.used(now) < overall.limit:
            chat, cls = self._next_ready(_INTERACTIVE, now), _INTERACTIVE
            if chat is None and now >= self._bulk_paused_until:
                chat, cls = self._next_ready(_BULK, now), _BULK
            if chat is None:
                return
            chat.waiting[cls].popleft().set_result(None)  # live: _next_ready checked has()
            self._pending -= 1
            self._take(chat)
            self._promote(chat, now)

    def _next_ready(self, cls: int, now: float) -> _Chat | None:
        ready = self._ready[cls]
        while ready:
            chat = ready.popleft()
            chat.queued[cls] = False
            if not chat.has(cls) or (cls == _BULK and chat.has(_INTERACTIVE)):
                self._promote(chat, now)
            elif chat.paused_until <= now and _fits(chat.windows, now):
                return chat
            else:
                self._promote(chat, now)  # filled since it was queued: wait for its timer
        return None

    # -- the dispatcher: wakes waiters when a window frees up ----------------------------------

    def _deadline(self, now: float) -> float:
        """The first time after ``now`` the pump may admit a waiter without a release first."""
        at = self._timers[0][0] if self._timers else math.inf
        ready, bulk = self._ready
        if ready or bulk:
            free = self._overall.free_at(now)  # None: all in flight; a release re-arms
            if free is not None:
                at = min(at, free if ready else max(free, self._bulk_paused_until))
        return at

    def _arm(self, now: float) -> None:
        """Start the dispatcher, or wake it if a deadline is now earlier than its alarm."""
        if self._dispatcher is None or self._dispatcher.done():
            if self._pending:
                self._dispatcher = asyncio.create_task(self._dispatch())
        elif self._wake and (not self._pending or self._deadline(now) < self._alarm):
            _resolve(self._wake)

    async def _dispatch(self) -> None:
        """Pump, then sleep until the next deadline or until ``_arm`` wakes it; repeat.

        One clock reading per pass: the pump acts on every deadline at or before it, so all
        that are left are later, and the sleep ends no later than the first of them.
        """
        loop = asyncio.get_running_loop()
        while True:
            now = self._clock()
            self._pump(now)
            if not self._pending:
                return
            self._alarm = at = self._deadline(now)
            wake = self._wake = loop.create_future()
            sleeper = asyncio.ensure_future(self._sleep(max(0.0, min(at - now, _SAFETY_WAKE))))
            sleeper.add_done_callback(functools.partial(_resolve, wake))
            try:
                await wake
            finally:
                sleeper.cancel()
