"""The call log and the test-side waits on it (no polling: woken by every change)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from .models import ApiCall, CallbackAnswer, JsonDict
from .users import BotApiUsers

__all__ = ["BotApiWaiting"]


class BotApiWaiting(BotApiUsers):
    """Adds :attr:`calls` and the waits: :meth:`wait_until`, :meth:`wait_for_call`,
    :meth:`callback_answer` and :meth:`idle`."""

    def __init__(self, *, token: str, bot_id: int, bot_username: str) -> None:
        super().__init__(token=token, bot_id=bot_id, bot_username=bot_username)
        self.calls: list[ApiCall] = []
        self._inflight = 0
        self._polled = False  # the bot has called getUpdates at least once
        self._last_activity = time.monotonic()
        # What the bot under test says about itself: True while it still works on something
        # the network does not show (an update being handled, a message being prepared).
        self._busy: list[Callable[[], bool]] = []

    @contextmanager
    def busy_while(self, probe: Callable[[], bool]) -> Iterator[None]:
        """Inside the block :meth:`idle` also waits while ``probe()`` is True (checked every
        few ms)."""
        self._busy.append(probe)
        try:
            yield
        finally:
            self._busy.remove(probe)

    def _webhook_changed(self) -> None:
        self._activity(True)

    def _activity(self, counts: bool) -> None:
        """Wake waiters; ``counts``: this resets the quiet period :meth:`idle` waits for."""
        if counts:
            self._last_activity = time.monotonic()
        self._notify()

    # -- reading the log -----------------------------------------------------------------------

    def calls_to(
        self, method: str, where: Callable[[JsonDict], bool] | None = None
    ) -> list[ApiCall]:
        """Calls to ``method`` (every attempt, injected faults included), optionally only those
        whose params satisfy ``where``."""
        return [c for c in self.calls if c.method == method and (where is None or where(c.params))]

    # -- waiting -------------------------------------------------------------------------------

    def _timeout_error(self, what: str, timeout: float) -> TimeoutError:
        last = "\n  ".join(c.short() for c in self.calls[-10:]) or "(none)"
        return TimeoutError(f"timed out after {timeout}s waiting for {what}; last calls:\n  {last}")

    async def wait_until(
        self,
        predicate: Callable[[], bool],
        timeout: float = 5.0,  # noqa: ASYNC109
        *,
        what: str = "condition",
    ) -> None:
        """Wait (without polling) until ``predicate()`` holds; re-checked after every change."""
        deadline = time.monotonic() + timeout
        while not predicate():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise self._timeout_error(what, timeout)
            await self._wait_change(remaining)

    async def wait_for_call(
        self,
        method: str,
        predicate: Callable[[ApiCall], bool] | None = None,
        *,
        count: int = 1,
        since: int = 0,
        timeout: float = 5.0,  # noqa: ASYNC109
    ) -> ApiCall:
        """The ``count``-th *answered* call to ``method`` among ``calls[since:]`` matching
        ``predicate`` (pass ``since=len(fake.calls)`` to ignore earlier calls)."""

        def matching() -> list[ApiCall]:
            calls = self.calls[since:]
            return [
                c
                for c in calls
                if c.method == method
                and c.status is not None
                and (predicate is None or predicate(c))
            ]

        await self.wait_until(lambda: len(matching()) >= count, timeout, what=f"{count}x {method}")
        return matching()[count - 1]

    async def callback_answer(self, query_id: str, timeout: float = 5.0) -> CallbackAnswer:  # noqa: ASYNC109
        """Wait for the bot to answer callback query ``query_id``."""
        await self.wait_until(
            lambda: query_id in self.callback_answers, timeout, what=f"answer to query {query_id}"
        )
        return self.callback_answers[query_id]

    async def idle(self, settle: float = 0.05, timeout: float = 5.0) -> None:  # noqa: ASYNC109
        """Wait until nothing is in flight, every update was fetched (once the bot polls), the
        bot says it is not busy (:meth:`busy_while`) and no request (other than an empty long
        poll) arrived for ``settle`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            now = time.monotonic()
            unfetched = self.webhook.pending > 0 or (
                self._polled and any(u["update_id"] > self._delivered_upto for u in self._updates)
            )
            if any(probe() for probe in self._busy):
                self._last_activity = now  # the quiet period starts when the bot is done
            quiet = now - self._last_activity
            if not self._inflight and not unfetched and quiet >= settle:
                return
            if now >= deadline:
                raise self._timeout_error(
                    f"idle (in flight: {self._inflight}, unfetched: {unfetched})", timeout
                )
            wait = settle - quiet if not self._inflight and not unfetched else deadline - now
            if self._busy:
                wait = min(wait, 0.005)  # the bot's own work wakes nobody: look again soon
            await self._wait_change(min(wait, deadline - now))
