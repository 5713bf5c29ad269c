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
import itertools
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from datetime import timedelta
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

from bot.transport.ratelimit.queues import Queues
from bot.transport.ratelimit.windows import (
    _BULK,
    _INTERACTIVE,
    _MIN_SWEEP,
    ChatKey,
    RequestDropped,
    SendingStopped,
    _Chat,
    _chat_key,
    _Window,
    counts_against_limits,
    divided,
)

RateLimitArgs = dict[str, Any]
JSONDict = dict[str, Any]


class SlidingWindowRateLimiter(Queues, BaseRateLimiter[RateLimitArgs]):
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
        self._closed = False

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

    def close(self) -> None:
        """Stop admitting: every request waiting for a window fails with SendingStopped, and
        so does every new one (those already admitted go on)."""
        self._closed = True
        for chat in self._chats.values():
            for queue in chat.waiting:
                for future in queue:
                    if not future.done():
                        future.set_exception(SendingStopped("the bot is stopping"))
                        self._pending -= 1

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
        if self._closed:
            raise SendingStopped("the bot is stopping")
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

    # -- the dispatcher: wakes waiters when a window frees up ----------------------------------
