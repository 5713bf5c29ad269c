"""Sends the daily questions the ledger says are owed, within Telegram's limits.

At most `IN_FLIGHT` sends are between "request sent" and "ledger marked sent" at any moment,
so a `kill -9` can duplicate at most that many pushes: those rows are still 'pending' at the
next start and are sent again. A graceful stop lets in-flight sends finish and leaves the rest
pending, so it duplicates nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import timedelta
from typing import Any

from telegram.error import ChatMigrated, Forbidden, RetryAfter, TelegramError
from telegram.ext import ExtBot

from bot import metrics
from bot.core.daily import DailyAsk, DailyService
from bot.core.model import Push
from bot.render import group as render_group
from bot.render import questions as render

log = logging.getLogger(__name__)

IN_FLIGHT = 16
PREPARED = 4 * IN_FLIGHT
MAX_ATTEMPTS = 4
BACKOFF_SECONDS = (1.0, 4.0, 15.0)
BATCH = 500
PLAN_BATCH = 5000
# Within docker compose's 45 s stop grace period, with room for the rest of the shutdown.
STOP_TIMEOUT_SECONDS = 30.0


def _seconds(value: int | timedelta) -> float:
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


class DailySender:
    def __init__(
        self,
        daily: DailyService,
        bot: ExtBot[Any],
        *,
        sleep: Callable[[float], Awaitable[None]] | None = None,
    ) -> None:
        self._daily = daily
        self._bot = bot
        # Back-off waits end early on stop, so a graceful shutdown never waits them out.
        self.sleep = sleep or self._sleep_unless_stopped
        self._lock = asyncio.Lock()
        self._stopping = False
        self._wake = asyncio.Event()
        self._stopped = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start sending (again, after `stop`: a replica that becomes the leader once more)."""
        self._stopping = False
        self._stopped.clear()
        self._task = asyncio.create_task(self._run(), name="daily-sender")

    async def _sleep_unless_stopped(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stopped.wait(), timeout=seconds)

    def wake(self) -> None:
        """Look for due pushes now instead of at the next second."""
        self._wake.set()

    async def stop(self) -> None:
        """Finish the sends in flight; whatever is not sent yet stays pending for next time."""
        self._stopping = True
        self._stopped.set()
        self._wake.set()
        task, self._task = self._task, None
        if task is None:
            return
        try:
            await asyncio.wait_for(task, timeout=STOP_TIMEOUT_SECONDS)
        except TimeoutError:
            # A send that hangs must not block shutdown forever; its row stays pending.
            log.warning(
                "daily sends still in flight after %s s; leaving them pending", STOP_TIMEOUT_SECONDS
            )

    async def _run(self) -> None:
        while not self._stopping:
            try:
                await self.run_once()
            except Exception:
                log.exception("daily fan-out failed; retrying in a second")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=1.0)
            self._wake.clear()

    async def run_once(self) -> None:
        """Plan the slots that have come, then send every pending push."""
        async with self._lock:
            while await self._daily.plan_due(PLAN_BATCH) == PLAN_BATCH:
                pass
            await self._send_pending()

    async def _send_pending(self) -> None:
        # One pipeline over all batches. Up to PREPARED pushes have their question drafted
        # (database work) while at most IN_FLIGHT are being sent and marked sent, so a send
        # slot never waits for a draft and the limiter never runs dry, not even between batches.
        prepared = asyncio.Semaphore(PREPARED)
        sending = asyncio.Semaphore(IN_FLIGHT)
        running: set[asyncio.Task[None]] = set()
        seen: set[tuple[int, str]] = set()

        async def one(push: Push) -> None:
            try:
                await self._deliver(push, sending)
            except Exception:
                # One push's unexpected failure must not stop the others; it stays pending.
                log.exception("chat %s: daily push failed unexpectedly", push.chat_id)
            finally:
                prepared.release()
                metrics.fanout_finished()

        try:
            while not self._stopping:
                batch = [
                    p
                    for p in await self._daily.pending(BATCH)
                    if (p.chat_id, p.local_day.isoformat()) not in seen
                ]
                if not batch:
                    break
                if not seen:
                    metrics.fanout_started()
                metrics.fanout_taken(len(batch))
                seen.update((p.chat_id, p.local_day.isoformat()) for p in batch)
                for push in batch:
                    await prepared.acquire()
                    if self._stopping:
                        prepared.release()
                        break
                    task = asyncio.create_task(one(push))
                    running.add(task)
                    task.add_done_callback(running.discard)
        finally:
            if running:
                await asyncio.gather(*running, return_exceptions=True)
            metrics.fanout_ended()

    async def _deliver(self, push: Push, sending: asyncio.Semaphore) -> None:
        current: Push | None = push
        for attempt in range(1, MAX_ATTEMPTS + 1):
            if current is None or self._stopping:
                return
            chat = await self._daily.deliverable_chat(current.chat_id)
            if chat is None:
                await self._daily.failed(current, "chat inactive or unknown", final=True)
                return
            new = await self._daily.ask_for(current, chat)
            # A retry must find this ask on the push, or it would draft a second question.
            current = replace(current, ask_id=new.ask.id)
            text = await self._text(new)
            try:
                async with sending:
                    if self._stopping:
                        return
                    message_id = await self._send_question(current.chat_id, new, text)
                    await self._daily.sent(current, new.ask, message_id)
                    metrics.fanout_sent()
                return
            except Forbidden as error:
                log.info("chat %s: %s; daily question turned off", current.chat_id, error.message)
                await self._daily.chat_gone(current, error.message)
                return
            except ChatMigrated as error:
                current = await self._daily.chat_moved(current, error.new_chat_id)
                continue
            except RetryAfter as error:
                await self._daily.failed(current, error.message, final=False)
                await self.sleep(_seconds(error.retry_after))
                continue
            except TelegramError as error:
                final = attempt == MAX_ATTEMPTS
                await self._daily.failed(current, error.message, final=final)
                if final:
                    log.warning("chat %s: daily push failed: %s", current.chat_id, error.message)
                    return
                await self.sleep(BACKOFF_SECONDS[min(attempt, len(BACKOFF_SECONDS)) - 1])
                continue

    async def _send_question(self, chat_id: int, new: DailyAsk, text: str) -> int:
        sent = await self._bot.send_message(
            chat_id=chat_id,
            text=text,
            reply_markup=render.question_keyboard(new.ask),
            rate_limit_args={"bulk": True},
        )
        return sent.message_id

    async def _text(self, new: DailyAsk) -> str:
        ask = new.ask
        zone = await self._daily.zone_of(ask.chat_id)
        title = self._daily.deck_title(ask.deck_id)
        return render_group.open_question_message(new.question, ask, title, 0, zone)
