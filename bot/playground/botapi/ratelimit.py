"""Telegram-like flood limits for the fake Bot API (sliding windows, 429 + retry_after)."""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["RateLimits", "is_rate_limited_method"]

_UNLIMITED = frozenset({"sendChatAction"})


def is_rate_limited_method(method: str) -> bool:
    """Message-producing methods count; getUpdates, getMe, answerCallbackQuery... do not."""
    return method.startswith(("send", "edit", "copy", "forward", "stop")) and (
        method not in _UNLIMITED
    )


@dataclass
class _Window:
    limit: int
    seconds: float
    hits: deque[float] = field(default_factory=deque)

    def retry_after(self, now: float) -> float:
        while self.hits and self.hits[0] <= now - self.seconds:
            self.hits.popleft()
        return 0.0 if len(self.hits) < self.limit else self.hits[0] + self.seconds - now


@dataclass
class RateLimits:
    """Overall ``overall_per_second``, per group/supergroup ``group_per_minute``, and per
    private chat ``private_per_second`` on average with bursts of ``private_burst``: all
    sliding windows, the private one ``private_burst`` per ``private_burst /
    private_per_second`` seconds (3 per 3 s by default, as the bot's limiter assumes).

    ``factor`` scales the allowed *rates*: the windows are ``1 s / factor``, ``3 s / factor``
    and ``60 s / factor`` (factor 10 allows 300 msg/s overall, factor 0.1 allows 3).
    ``clock`` is injectable. ``retry_after`` is whole seconds (at least 1), like Telegram's.
    """

    overall_per_second: int = 30
    private_per_second: int = 1
    private_burst: int = field(default=3, kw_only=True)
    group_per_minute: int = 20
    factor: float = 1.0
    clock: Callable[[], float] = time.monotonic
    rejected: int = 0
    _overall: _Window | None = field(default=None, init=False, repr=False)
    _chats: dict[int | str, _Window] = field(default_factory=dict, init=False, repr=False)

    def check(self, chat_id: int | str | None, *, is_group: bool) -> int | None:
        """Account one request at ``clock()``; return retry_after if it must be rejected."""
        now = self.clock()
        if self._overall is None:
            self._overall = _Window(self.overall_per_second, 1.0 / self.factor)
        windows = [self._overall]
        if chat_id is not None:
            window = self._chats.get(chat_id)
            if window is None:
                limit, seconds = (
                    (self.group_per_minute, 60.0)
                    if is_group
                    else (self.private_burst, self.private_burst / self.private_per_second)
                )
                window = self._chats[chat_id] = _Window(limit, seconds / self.factor)
            windows.append(window)
        wait = max(w.retry_after(now) for w in windows)
        if wait > 0:
            self.rejected += 1
            return max(1, math.ceil(wait))
        for w in windows:
            w.hits.append(now)
        return None

    def reset(self) -> None:
        self._overall = None
        self._chats.clear()
        self.rejected = 0
