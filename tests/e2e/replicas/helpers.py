"""Helpers for the replica tests: several real bots in webhook mode on one PostgreSQL
database behind the fake Bot API, and what the fake saw of them."""

from __future__ import annotations

import asyncio
import re
import socket
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from random import Random
from typing import Any, ClassVar

import asyncpg
from pydantic import SecretStr

from bot.app import RunningBot, running_bot
from bot.config import Settings
from bot.playground.botapi import ApiCall, BotApiServer, StoredMessage
from bot.playground.botapi.ratelimit import is_rate_limited_method
from bot.workers.leader import LeaderLoop
from tests.fakes.clock import FakeClock

SECRET = "e2e_replicas-SECRET_0123456789"
HOOK_PATH = "/telegram/hook"
OPEN_SECONDS = 10  # QUIZBOT_QUIZ_OPEN_SECONDS: a short jump of the clock closes a question
_ANSWER = re.compile(r"^a:(\d+):\d$")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class RecordingLeaderLoop(LeaderLoop):
    """The bot's LeaderLoop, remembering each instance and counting its beats (RunningBot has
    no handle on it)."""

    made: ClassVar[list[RecordingLeaderLoop]] = []

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.beats = 0
        RecordingLeaderLoop.made.append(self)

    async def check(self) -> None:
        await super().check()
        self.beats += 1


@dataclass
class Replica:
    running: RunningBot
    leader: RecordingLeaderLoop
    url: str


def replica_settings(fake: BotApiServer, database: str, port: int, **extra: Any) -> Settings:
    return Settings(
        telegram_bot_token=SecretStr(fake.token),
        database=database,
        api_base_url=fake.url,  # type: ignore[arg-type]
        default_deck="nca-multi-gpu-5",
        webhook_url=f"http://127.0.0.1:{port}{HOOK_PATH}",  # type: ignore[arg-type]
        webhook_secret=SecretStr(SECRET),
        webhook_listen="127.0.0.1",
        webhook_port=port,
        quiz_open_seconds=OPEN_SECONDS,
        _env_file=None,
        **({"rate_limit_scale": 1000} | extra),
    )


@asynccontextmanager
async def replica(
    fake: BotApiServer, database: str, clock: FakeClock, seed: int, **extra: Any
) -> AsyncIterator[Replica]:
    """One replica in webhook mode on a free port of 127.0.0.1 (RecordingLeaderLoop patched in)."""
    port = free_port()
    settings = replica_settings(fake, database, port, **extra)
    before = len(RecordingLeaderLoop.made)
    async with running_bot(settings, clock=clock, rng=Random(seed)) as running:
        (leader,) = RecordingLeaderLoop.made[before:]
        yield Replica(running, leader, str(settings.webhook_url))


async def beaten(replicas: list[Replica], timeout: float = 5.0) -> None:  # noqa: ASYNC109
    """Until every replica's leader loop has beaten once more: each then counts the others for
    its share of the limits."""
    start = [r.leader.beats for r in replicas]
    await until(
        lambda: all(r.leader.beats > n for r, n in zip(replicas, start, strict=True)),
        timeout,
        "a heartbeat of every replica",
    )


async def until(predicate: Callable[[], bool], timeout: float, what: str) -> None:  # noqa: ASYNC109
    """Poll (for conditions the fake is not woken by, e.g. a leader loop's state)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout}s waiting for {what}")
        await asyncio.sleep(0.02)


async def settle(fake: BotApiServer, replicas: list[Replica]) -> None:
    """Until both replicas' senders and the fake are quiet, twice over (one replica's sends can
    start another's)."""
    for _ in range(2):
        for r in replicas:
            await r.running.sender.idle()
        await fake.idle(settle=0.2, timeout=15)


def ask_of_data(data: str) -> int | None:
    match = _ANSWER.match(data)
    return int(match.group(1)) if match else None


def _result_asks(call: ApiCall) -> set[int]:
    result = call.result if isinstance(call.result, dict) else {}
    rows = (result.get("reply_markup") or {}).get("inline_keyboard", [])
    datas = [b.get("callback_data", "") for row in rows for b in row]
    return {ask for d in datas if (ask := ask_of_data(d)) is not None}


def question_sends(fake: BotApiServer) -> Counter[int]:
    """How many times each ask's question was sent (answered sendMessage calls)."""
    sent: Counter[int] = Counter()
    for call in fake.calls_to("sendMessage"):
        if call.ok:
            sent.update(_result_asks(call))
    return sent


def questions_in(fake: BotApiServer, chat_id: int) -> list[StoredMessage]:
    """The chat's question messages (those sent with answer buttons), oldest first."""
    ids = [
        call.result["message_id"]
        for call in fake.calls_to("sendMessage", lambda p: p.get("chat_id") == chat_id)
        if call.ok and _result_asks(call)
    ]
    return [fake.message(chat_id, message_id) for message_id in ids]


def replies_to(fake: BotApiServer, chat_id: int, message_id: int) -> list[StoredMessage]:
    return [m for m in fake.bot_messages(chat_id) if m.reply_to == message_id]


def reveals(fake: BotApiServer, chat_id: int, message_id: int) -> list[ApiCall]:
    """Answered edits of a group question into its reveal (the one with the explanation)."""
    return [
        c
        for c in fake.calls_to("editMessageText")
        if c.ok
        and c.params.get("chat_id") == chat_id
        and c.params.get("message_id") == message_id
        and "💡" in str(c.params.get("text", ""))
    ]


def help_replies(fake: BotApiServer, chat_id: int) -> list[StoredMessage]:
    return [m for m in fake.bot_messages(chat_id) if (m.text or "").startswith("👋 <b>quizbot")]


def sends_to(fake: BotApiServer, chat_id: int) -> list[ApiCall]:
    """Every call that counts against the chat's flood window (refused ones included)."""
    return [
        c
        for c in fake.calls
        if is_rate_limited_method(c.method) and c.params.get("chat_id") == chat_id
    ]


def most_in_window(times: list[float], window: float) -> int:
    """The most of `times` in any half-open window (t - window, t], as Telegram counts."""
    times = sorted(times)
    most, first = 0, 0
    for last, at in enumerate(times):
        while times[first] <= at - window:
            first += 1
        most = max(most, last - first + 1)
    return most


async def ask_on_record(running: RunningBot, ask_id: int, timeout: float = 5.0) -> None:  # noqa: ASYNC109
    """Until the bot has stored the message id of the ask's question (its time runs from it)."""
    deadline = time.monotonic() + timeout
    while True:
        ask = await running.store.get_ask(ask_id)
        if ask is not None and ask.message_id is not None:
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"ask {ask_id} never got its message id")
        await asyncio.sleep(0.02)


async def answer_rows(database: str) -> list[tuple[int, int]]:
    conn = await asyncpg.connect(database)
    try:
        rows = await conn.fetch("SELECT ask_id, user_id FROM answers ORDER BY id")
    finally:
        await conn.close()
    return [(int(r["ask_id"]), int(r["user_id"])) for r in rows]


async def ask_ids(database: str) -> set[int]:
    conn = await asyncpg.connect(database)
    try:
        rows = await conn.fetch("SELECT id FROM asks")
    finally:
        await conn.close()
    return {int(r["id"]) for r in rows}
