"""Keeps one member from turning a group into a megaphone: a few commands a minute each."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from enum import Enum

LIMIT = 6
WINDOW_SECONDS = 60.0
SLOW_DOWN = "⏳ Easy — a few commands a minute each, please. I'll answer again in a minute."


class Verdict(Enum):
    ALLOW = "allow"
    WARN = "warn"  # over the limit: say so once
    IGNORE = "ignore"  # still over it: stay quiet


class CommandThrottle:
    def __init__(
        self,
        limit: int = LIMIT,
        window: float = WINDOW_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._limit = limit
        self._window = window
        self._clock = clock
        self._recent: dict[tuple[int, int], deque[float]] = {}
        self._warned: set[tuple[int, int]] = set()
        self._sweep_at = clock() + window

    def check(self, chat_id: int, user_id: int) -> Verdict:
        now = self._clock()
        if now >= self._sweep_at:
            self._sweep(now)
        key = (chat_id, user_id)
        recent = self._recent.setdefault(key, deque())
        while recent and recent[0] <= now - self._window:
            recent.popleft()
        if len(recent) < self._limit:
            recent.append(now)
            self._warned.discard(key)
            return Verdict.ALLOW
        if key in self._warned:
            return Verdict.IGNORE
        self._warned.add(key)
        return Verdict.WARN

    def _sweep(self, now: float) -> None:
        # Memory stays within the members active in the last window.
        self._recent = {
            key: hits
            for key, hits in self._recent.items()
            if hits and hits[-1] > now - self._window
        }
        self._warned &= self._recent.keys()
        self._sweep_at = now + self._window


class OncePer:
    """Says a thing about the same subject at most once per `window` (e.g. pointing a group at
    its open question: twenty members sending /quiz get one pointer, not twenty)."""

    def __init__(self, window: float = WINDOW_SECONDS, clock: Callable[[], float] = time.monotonic):
        self._window = window
        self._clock = clock
        self._said: dict[object, float] = {}

    def first(self, subject: object) -> bool:
        now = self._clock()
        if len(self._said) > 4096:
            self._said = {k: t for k, t in self._said.items() if t > now - self._window}
        said = self._said.get(subject)
        if said is not None and said > now - self._window:
            return False
        self._said[subject] = now
        return True
