"""The limiter's queues: who waits for which windows, in which class, and the dispatcher that
admits waiters as the windows free up (`SlidingWindowRateLimiter` is this plus the API PTB calls).
"""

from __future__ import annotations

import asyncio
import functools
import heapq
import itertools
import math
from collections import deque
from collections.abc import Awaitable, Callable

from bot.transport.ratelimit.windows import (
    _BULK,
    _INTERACTIVE,
    _MIN_SWEEP,
    _SAFETY_WAKE,
    ChatKey,
    RequestDropped,
    _Chat,
    _fits,
    _resolve,
    _Window,
)


class Queues:
    """The waiting part of the limiter; its state is set up by the limiter's constructor."""

    _private: tuple[int, float, int]
    _group: tuple[int, float, int]
    _overall: _Window
    _clock: Callable[[], float]
    _sleep: Callable[[float], Awaitable[None]]
    _chats: dict[ChatKey, _Chat]
    _sweep_at: float
    _next_sweep: float
    _ready: tuple[deque[_Chat], deque[_Chat]]
    _timers: list[tuple[float, int, _Chat]]
    _seq: itertools.count[int]
    _pending: int
    _bulk_paused_until: float
    _alarm: float
    _wake: asyncio.Future[None] | None
    _dispatcher: asyncio.Task[None] | None

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
