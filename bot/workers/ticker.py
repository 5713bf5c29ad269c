"""The ticker: every second, closes due questions and starts the chats with work to send."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

from telegram.ext import CallbackContext, Job, JobQueue

from bot.core.closing import Closer
from bot.workers.sender import Sender

log = logging.getLogger(__name__)

TICK_SECONDS = 1.0

# More database work due by the clock (e.g. submitting exams): the chats that now owe messages.
DueWork = Callable[[], Awaitable[Iterable[int]]]


class Ticker:
    def __init__(self, closer: Closer, sender: Sender, also: Sequence[DueWork] = ()) -> None:
        self._closer = closer
        self._also = tuple(also)
        self._sender = sender
        self._lock = asyncio.Lock()
        self._job: Job[Any] | None = None

    async def tick(self) -> None:
        """Close what is due (database work only), then hand every chat that owes messages
        to its own sender task; nothing here waits for Telegram."""
        async with self._lock:
            for chat_id in await self._closer.close_due():
                self._sender.kick(chat_id)
            for work in self._also:
                for chat_id in await work():
                    self._sender.kick(chat_id)
            await self._sender.scan()

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
        except Exception:
            log.exception("tick failed; trying again in a second")
