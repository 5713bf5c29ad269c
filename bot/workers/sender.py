"""Sends the messages the use cases owe, of every kind, one queue per chat.

Each chat with owed messages gets its own task that works through them in order, so a chat
whose flood window is full (or whose sends keep failing) never delays another chat. Within a
chat, owed messages go before live-count edits. Failures are reported to the outbox, which
decides about retries; a chat's task ends when it has nothing due, and the next commit that
owes it something (or the ticker's scan) starts it again.

Bulk messages (the daily fan-out) are started by a feeder, a bounded number of chats at a
time, and at most `IN_FLIGHT` of them are between "sent" and "settled" at any moment: a
`kill -9` can send at most that many twice (they are still pending at the next start).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, Protocol

from telegram.ext import ExtBot

from bot import metrics
from bot.core.delivery import Outbox, Shown
from bot.workers.calls import CallRunner, Moved, Outcome
from bot.workers.live_count import LiveCounts

log = logging.getLogger(__name__)

# On stop, sends already on the wire get this long to finish (a request's own time-out is 5 s);
# messages still waiting for their chat's window stay owed and go out after the next start.
STOP_GRACE_SECONDS = 10.0
# Bulk: chats whose messages are being prepared or sent at once, and sends in flight.
BULK_CHATS = 64
IN_FLIGHT = 16


class ChatClaims(Protocol):
    """Replicas on one database: a chat's messages are sent by the one holding its claim."""

    async def claim(self, chat_id: int) -> bool: ...

    async def release(self, chat_id: int) -> None: ...


def _task(coroutine: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
    # A context of its own: the task belongs to no update's handling.
    return asyncio.create_task(coroutine, name=name, context=contextvars.Context())


class Sender:
    def __init__(
        self,
        outbox: Outbox,
        bot: ExtBot[Any],
        live: LiveCounts,
        claims: ChatClaims | None = None,
        expected: Callable[[BaseException], bool] = lambda _: False,
        close_gate: Callable[[], None] = lambda: None,
        *,
        images: Path,
    ) -> None:
        """`expected`: failures that are one log line, not a traceback (a database that does
        not answer: the work stays owed and is tried again). `close_gate`: on stop, stops the
        sends still waiting for their window (the rate limiter's `close`). `images`: the folder
        the decks' image paths are relative to."""
        self._close_gate = close_gate
        self._expected = expected
        self._outbox = outbox
        self._calls = CallRunner(bot, outbox, images)
        self._live = live
        self._claims = claims
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._stopping = False
        self._in_flight = asyncio.Semaphore(IN_FLIGHT)
        self._bulk_slots = asyncio.Semaphore(BULK_CHATS)
        self._bulk_wake = asyncio.Event()
        self._feeder: asyncio.Task[None] | None = None
        self._feeding = False
        outbox.listen(self.kick)

    def kick(self, chat_id: int) -> None:
        """Work through the chat's owed messages now (a no-op while it is being worked)."""
        if self._stopping:
            return
        if chat_id in self._tasks:
            self._again.add(chat_id)
            return
        self._tasks[chat_id] = _task(self._drain(chat_id), f"send-{chat_id}")

    async def scan(self) -> None:
        """Start every chat with due interactive work (retries, and work left from before a
        restart) and wake the bulk feeder."""
        due = await self._outbox.due_chats()
        metrics.set_pending_sends(len(due))  # chats, not messages: the store counts no further
        for chat_id in due:
            self.kick(chat_id)
        for chat_id in self._live.due_chats():
            self.kick(chat_id)
        self._bulk_wake.set()

    def start_bulk(self) -> None:
        """Start feeding bulk messages (on the leader: the daily fan-out is its work)."""
        self._stopping = False
        self._feeding = True
        if self._feeder is None or self._feeder.done():
            self._feeder = _task(self._feed(), "bulk-feeder")

    async def stop_bulk(self) -> None:
        """Start no more bulk chats (those being worked finish, or stop with the sender)."""
        self._feeding = False
        self._bulk_wake.set()
        feeder, self._feeder = self._feeder, None
        if feeder is not None:
            await feeder

    async def idle(self) -> None:
        """Until no chat is being worked (tests and shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def stop(self) -> None:
        """Start nothing more; sends waiting for their window stay owed for the next start,
        and those already on the wire finish (so a graceful stop sends nothing twice)."""
        self._stopping = True
        await self.stop_bulk()
        self._close_gate()
        tasks = list(self._tasks.values())
        if not tasks:
            return
        _, pending = await asyncio.wait(tasks, timeout=STOP_GRACE_SECONDS)
        for task in pending:  # hung on the network past the grace: it stays owed
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

    async def _feed(self) -> None:
        """Keep up to BULK_CHATS chats with bulk messages being worked, oldest first."""
        while self._feeding and not self._stopping:
            try:
                started = await self._feed_once()
            except Exception as error:
                if not self._expected(error):
                    log.exception("reading the bulk messages due failed; trying again")
                else:
                    log.warning("reading the bulk messages due failed (%s); trying again", error)
                started = 0
            if not started and self._feeding:
                self._bulk_wake.clear()
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(1.0):
                        await self._bulk_wake.wait()

    async def _feed_once(self) -> int:
        """Start the chats owed bulk messages due now (waiting for free slots); how many."""
        due = [c for c in await self._outbox.due_chats(bulk=True) if c not in self._tasks]
        metrics.set_pending_bulk(len(due))
        started = 0
        for chat_id in due:
            await self._bulk_slots.acquire()
            if self._stopping or chat_id in self._tasks:
                self._bulk_slots.release()
                continue
            self.kick(chat_id)
            self._tasks[chat_id].add_done_callback(lambda _: self._bulk_slots.release())
            started += 1
        return started

    async def feed_until_quiet(self) -> None:
        """Send every bulk message due, and whatever else is owed, until nothing is left
        (tests and benchmarks; the leader's feeder does this continuously)."""
        while await self._feed_once():
            await self.idle()
        await self.idle()

    async def _drain(self, chat_id: int) -> None:
        claimed = finished = False
        try:
            while not self._stopping:
                self._again.discard(chat_id)
                if self._claims is not None:
                    claimed = await self._claims.claim(chat_id)  # taken, or renewed
                    if not claimed:
                        return  # another replica is sending this chat's messages
                items = await self._outbox.due(chat_id)
                held: set[int | None] = set()  # what waits behind a send waiting for a retry
                for item in items:
                    key = item.effect.ask_id
                    if self._stopping:
                        return
                    if self._claims is not None and not await self._claims.claim(chat_id):
                        return  # the claim ran out and another replica took the chat
                    if key in held:
                        continue
                    outcome = await self._perform(item)
                    if isinstance(outcome, Moved):
                        self.kick(outcome.chat_id)
                        return
                    if outcome is Outcome.GONE:
                        return
                    if outcome is Outcome.RETRY:
                        held.add(key)
                if not items and chat_id not in self._again:
                    await self._live.flush(chat_id)
                    if chat_id not in self._again:
                        finished = True
                        return
        except Exception as error:
            if not self._expected(error):
                log.exception("chat %s: sending failed; the ticker retries", chat_id)
            else:
                log.warning("chat %s: sending stopped (%s); the ticker retries", chat_id, error)
        finally:
            # The claim goes before the task: a kick meanwhile must not start a task that
            # believes it still holds the claim another replica may now take.
            again = claimed and await self._release(chat_id) and finished
            self._tasks.pop(chat_id, None)
            if (again or chat_id in self._again) and not self._stopping:
                self._again.discard(chat_id)
                self.kick(chat_id)

    async def _perform(self, item: Shown) -> Outcome | Moved:
        if not item.effect.bulk:
            return await self._calls.perform(item)
        async with self._in_flight:
            if self._stopping:  # stays owed: sent after the next start, never twice
                return Outcome.RETRY
            return await self._calls.perform(item)

    async def _release(self, chat_id: int) -> bool:
        """Give the chat's claim up; whether messages became due meanwhile (owed by another
        replica, whose sender found the chat claimed by this one): then look again."""
        assert self._claims is not None
        try:
            await self._claims.release(chat_id)
            return await self._outbox.any_due(chat_id)
        except Exception as error:  # the claim runs out by itself; the ticker looks again
            if not self._expected(error):
                log.exception("chat %s: releasing the send claim failed", chat_id)
            else:
                log.warning("chat %s: releasing the send claim failed (%s)", chat_id, error)
            return False
