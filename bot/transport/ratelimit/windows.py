"""The sliding windows and per-chat queues behind the rate limiter, and what counts."""

from __future__ import annotations

import asyncio
import math
from collections import deque

from telegram.error import TelegramError

ChatKey = int | str | None
_INTERACTIVE, _BULK = 0, 1
_MIN_SWEEP = 1024  # chats kept before idle ones are swept by count
_SAFETY_WAKE = 1.0  # seconds the dispatcher sleeps at most; correctness never relies on it


class RequestDropped(TelegramError):  # noqa: N818 (named like RetryAfter, Forbidden)
    """A droppable request found no headroom, or met a 429: it was not sent, nor will it be."""


class SendingStopped(Exception):  # noqa: N818 (like RequestDropped)
    """The bot is stopping: a request still waiting for its window is not sent (what it was
    for stays owed for the next start); requests already sent finish."""


def counts_against_limits(endpoint: str) -> bool:
    """Message-producing methods count; getUpdates, answerCallbackQuery, getMe... do not."""
    return endpoint.startswith(("send", "edit", "copy", "forward", "stop")) and (
        endpoint != "sendChatAction"
    )


def divided(limit: int, period: float, replicas: int) -> tuple[int, float]:
    """One replica's share of a window: the limit divided, so that the replicas' sends in any
    period add up to at most `limit`; a limit smaller than the replicas gets a longer period."""
    if limit >= replicas:
        return limit // replicas, period
    return 1, period * math.ceil(replicas / limit)


class _Window:
    __slots__ = ("done", "group", "inflight", "limit", "period", "reserve")

    def __init__(self, limit: int, period: float, reserve: int = 0, group: bool = False) -> None:
        self.limit, self.period, self.reserve = limit, period, reserve  # reserve: for droppables
        self.group = group
        self.inflight = 0
        self.done: deque[float] = deque()  # response times, oldest first

    def used(self, now: float) -> int:
        done, period = self.done, self.period
        while done and done[0] + period <= now:
            done.popleft()
        return self.inflight + len(done)

    def free_at(self, now: float) -> float | None:
        """When a slot is free: ``now`` if one is, None while in-flight requests fill it."""
        if self.used(now) < self.limit:
            return now
        return self.done[0] + self.period if self.done else None


def _fits(windows: tuple[_Window, ...], now: float) -> bool:
    for window in windows:  # noqa: SIM110 (a loop: all() and a generator cost twice as much)
        if window.used(now) >= window.limit:
            return False
    return True


def _resolve(future: asyncio.Future[None], _: object = None) -> None:
    if not future.done():
        future.set_result(None)


class _Chat:
    __slots__ = (
        "all",
        "busy_until",
        "inflight",
        "paused_until",
        "queued",
        "span",
        "timer",
        "waiting",
        "windows",
    )

    def __init__(self, windows: tuple[_Window, ...], overall: _Window, span: float) -> None:
        self.windows, self.all, self.span = windows, (overall, *windows), span
        # Waiters by class (interactive, bulk), each FIFO; cancelled ones are skipped lazily.
        self.waiting: tuple[deque[asyncio.Future[None]], ...] = (deque(), deque())
        self.queued = [False, False]  # in the ready queue of that class
        self.timer = False  # a wake-up for this chat is in the timer heap
        self.inflight = 0
        self.paused_until = 0.0
        self.busy_until = 0.0  # until then a window or a pause still remembers the chat

    def has(self, cls: int) -> bool:
        queue = self.waiting[cls]
        while queue and queue[0].done():
            queue.popleft()
        return bool(queue)

    def idle(self, now: float) -> bool:
        return not self.inflight and self.busy_until <= now and not (self.has(0) or self.has(1))


def _chat_key(chat_id: object) -> ChatKey:
    if isinstance(chat_id, str) and chat_id.removeprefix("-").isdigit():
        return int(chat_id)  # as the server sees it
    return chat_id if isinstance(chat_id, int | str) else None
