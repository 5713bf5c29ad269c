"""The fake Bot API of `benchmarks.answers`, in a process of its own, driven over a pipe.

The fake runs in a spawned process with its own event loop, so the bot's process has a core to
itself on a 2-core machine. Both timestamps of a press are taken in that process
(``time.monotonic()``): when the press is queued for the bot's long poll and when its
``answerCallbackQuery`` arrives, before the fake's added latency: the ``ApiCall.time`` the fake
records on arrival. (Not the moment the call reaches ``_run``: since 51f25c9 the fake sleeps its
latency before that, so a press timed there would include one latency.) Presses are scheduled
by absolute time (press i is due at t0 + i/rate), never by accumulated sleeps.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import multiprocessing.connection
import time
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

from benchmarks import harness
from bot.playground.botapi import BotApiServer, FakeChat, FakeUser, JsonDict

STALL_SECONDS = 5.0  # a step stops draining when no answer has arrived for this long
DRAIN_CAP_SECONDS = 30.0  # ... or this long after its last press

Press = tuple[int, int, int, str]  # (member id, chat id, message id, callback data)


class CrowdFakeBotApi(BotApiServer):
    """The fake Bot API plus what the benchmark measures: when each press was queued and when
    its answerCallbackQuery arrived (before the fake's added latency), both in this process."""

    def __init__(self, *, latency: float) -> None:
        super().__init__(latency=latency)
        self.queued_at: dict[str, float] = {}
        self.answered: set[str] = set()  # presses whose answer is being handled (for draining)
        self.method_counts: Counter[str] = Counter()
        self._outstanding: set[str] = set()
        self._last_arrival = time.monotonic()
        self._members: dict[int, FakeUser] = {}
        self._chats: dict[int, FakeChat] = {}

    async def _run(self, method: str, params: JsonDict) -> Any:
        now = time.monotonic()
        self.method_counts[method] += 1
        if method == "answerCallbackQuery":
            query_id = str(params.get("callback_query_id") or "")
            if query_id not in self.answered:
                self.answered.add(query_id)
                self._outstanding.discard(query_id)
                self._last_arrival = now
        return await super()._run(method, params)

    def member(self, user_id: int) -> FakeUser:
        if user_id not in self._members:
            self._members[user_id] = harness.member(user_id)
        return self._members[user_id]

    def group(self, chat_id: int) -> FakeChat:
        if chat_id not in self._chats:
            self._chats[chat_id] = FakeChat.supergroup(chat_id, f"Crowd {chat_id}")
        return self._chats[chat_id]

    async def open_question(
        self,
        chat_id: int,
        user_id: int,
        text: str,
        timeout: float,  # noqa: ASYNC109
    ) -> tuple[int, list[str]] | None:
        """``user_id`` sends ``text`` (/quiz) in the group; the bot's question: its message id and
        option buttons (None: no question within ``timeout`` s)."""
        since = len(self.calls)
        self.send_message(self.group(chat_id), self.member(user_id), text)
        try:
            call = await self.wait_for_call(
                "sendMessage",
                lambda c: harness.is_question(c, chat_id),
                since=since,
                timeout=timeout,
            )
        except TimeoutError:
            return None
        return harness.message_id(call), harness.answer_buttons(call.result)

    async def load(self, presses: Sequence[Press], rate: float) -> JsonDict:
        """Press at ``rate``/s (press i due at t0 + i/rate), then wait for the answers."""
        counts_before = Counter(self.method_counts)
        first_call = len(self.calls)
        cpu0 = time.process_time()
        query_ids: list[str] = []
        t0 = time.monotonic()
        sent = 0
        while sent < len(presses):
            due = min(len(presses), int((time.monotonic() - t0) * rate) + 1)
            while sent < due:
                user_id, chat_id, message_id, data = presses[sent]
                chat, user = self.group(chat_id), self.member(user_id)
                query_id = self.press_button(chat, user, message_id, data)
                self.queued_at[query_id] = time.monotonic()
                self._outstanding.add(query_id)
                query_ids.append(query_id)
                sent += 1
            if sent < len(presses):
                await asyncio.sleep(max(0.0, t0 + sent / rate - time.monotonic()))
        last_press = time.monotonic()
        await self.drain(last_press)
        wall, cpu = time.monotonic() - t0, time.process_time() - cpu0
        await asyncio.sleep(self.latency + 0.05)  # let the last answers complete
        arrived = self.answer_arrivals(first_call)
        answers = [self.callback_answers.get(q) for q in query_ids]
        kinds = Counter(
            "missing" if a is None else _answer_kind(a.text, a.show_alert) for a in answers
        )
        return {
            "queued": [self.queued_at[q] for q in query_ids],
            "arrived": [arrived.get(q) for q in query_ids],
            "kinds": dict(kinds),
            "calls": dict(self.method_counts - counts_before),
            "cpu": cpu,
            "wall": wall,
        }

    def answer_arrivals(self, since: int) -> dict[str, float]:
        """Query id -> arrival of its first answerCallbackQuery, among the calls from ``since``."""
        arrived: dict[str, float] = {}
        for call in self.calls[since:]:
            if call.method == "answerCallbackQuery":
                arrived.setdefault(str(call.params.get("callback_query_id") or ""), call.time)
        return arrived

    async def drain(self, since: float, cap: float = DRAIN_CAP_SECONDS) -> int:
        """Wait until every press so far is answered, no answer came for STALL_SECONDS, or
        ``cap`` seconds after ``since``; returns how many presses are still unanswered."""
        while self._outstanding:
            now = time.monotonic()
            stalled = now - max(self._last_arrival, since) >= STALL_SECONDS
            if stalled or now - since >= cap:
                break
            await self._wait_change(0.1)
        return len(self._outstanding)


def _answer_kind(text: str | None, show_alert: bool) -> str:
    shown = (text or "").strip()
    if shown.startswith(("✅", "❌")):
        return "result alert" if show_alert else "result toast"
    return shown[:32] or "(no text)"


def _fake_process(conn: multiprocessing.connection.Connection, latency: float) -> None:
    asyncio.run(_serve_fake(conn, latency))


async def _serve_fake(conn: multiprocessing.connection.Connection, latency: float) -> None:
    async with CrowdFakeBotApi(latency=latency) as fake:
        conn.send((fake.url, fake.token))
        while True:
            command, args = await asyncio.to_thread(conn.recv)
            reply: Any
            if command == "open":
                reply = await fake.open_question(*args)
            elif command == "load":
                reply = await fake.load(*args)
            elif command == "drain":
                reply = await fake.drain(time.monotonic(), *args)
            elif command == "idle":
                settle, timeout = args
                try:
                    await fake.idle(settle=settle, timeout=timeout)
                    reply = True
                except TimeoutError:
                    reply = False
            elif command == "stop":
                conn.send(None)
                return
            else:
                reply = ValueError(f"unknown command {command!r}")
            conn.send(reply)


class FakeProcess:
    """The controlling end: starts the fake in a spawned process and calls it over a pipe."""

    def __init__(self, latency: float) -> None:
        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe()
        self._process = ctx.Process(
            target=_fake_process, args=(child, latency), name="fake-bot-api", daemon=True
        )
        self._child = child
        self.url = ""
        self.token = ""

    async def start(self) -> None:
        self._process.start()
        self._child.close()
        self.url, self.token = await asyncio.to_thread(self._conn.recv)

    async def call(self, command: str, *args: Any) -> Any:
        self._conn.send((command, args))
        reply = await asyncio.to_thread(self._conn.recv)
        if isinstance(reply, Exception):
            raise reply
        return reply

    async def stop(self) -> None:
        with contextlib.suppress(BrokenPipeError, EOFError, OSError):
            await self.call("stop")
        await asyncio.to_thread(self._process.join, 10)
        if self._process.is_alive():
            self._process.kill()


@asynccontextmanager
async def fake_process(latency: float) -> AsyncIterator[FakeProcess]:
    fake = FakeProcess(latency)
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()
