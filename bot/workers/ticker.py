"""The ticker (the leader's, with replicas): every second, the work due by the clock.

It closes due questions, runs the other due work (submitting exams past their deadline; with
replicas, live counts from every replica's answers), plans the daily slots that have come,
and starts the chats with owed messages; once a minute it forgets what no longer matters
(updates Telegram can no longer deliver again, ended command windows). Nothing here waits for
Telegram: what is due becomes owed messages, sent by each chat's own sender task.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

from telegram.ext import CallbackContext, Job, JobQueue

from bot.core.daily import DailyService
from bot.core.quiz.closing import Closer
from bot.workers.sender import Sender

log = logging.getLogger(__name__)

TICK_SECONDS = 1.0
TIDY_EVERY_TICKS = 60

# More database work due by the clock (e.g. submitting exams): the chats that now owe messages.
DueWork = Callable[[], Awaitable[Iterable[int]]]
Tidy = Callable[[], Awaitable[int]]


class Ticker:
    def __init__(
        self,
        *,
        closer: Closer,
        daily: DailyService,
        sender: Sender,
        also: Sequence[DueWork] = (),
        tidy: Sequence[Tidy] = (),
        expected: Callable[[BaseException], bool] = lambda _: False,
    ) -> None:
        self._expected = expected
        self._closer = closer
        self._daily = daily
        self._also = tuple(also)
        self._tidy = tuple(tidy)
        self._sender = sender
        self._lock = asyncio.Lock()
        self._job: Job[Any] | None = None
        self._ticks = 0

    async def tick(self) -> None:
        """Close and plan what is due (database work only), then hand every chat that owes
        messages to its own sender task."""
        async with self._lock:
            for chat_id in await self._closer.close_due():
                self._sender.kick(chat_id)
            for work in self._also:
                for chat_id in await work():
                    self._sender.kick(chat_id)
            await self._daily.plan_all()
            await self._sender.scan()
            self._ticks += 1
            if self._ticks % TIDY_EVERY_TICKS == 1:
                for tidy in self._tidy:
                    await tidy()

    def start(self, jobs: JobQueue[Any]) -> None:
        """Tick every second on PTB's JobQueue."""
        self._job = jobs.run_repeating(self._on_job, TICK_SECONDS, name="ticker")

    async def stop(self) -> None:
        if self._job is not None:
            self._job.schedule_removal()
            self._job = None
        async with self._lock:  # a tick in progress finishes first
            pass

    async def _on_job(self, context: CallbackContext[Any, Any, Any, Any]) -> None:
        try:
            await self.tick()
        except Exception as error:
            if not self._expected(error):
                log.exception("tick failed; trying again in a second")
                return
            log.warning("tick failed (%s); trying again in a second", error)
