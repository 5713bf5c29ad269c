"""What the benchmark scripts share: figures and tables, Telegram's limits, the bot's settings,
the bot against the fake Bot API, reading what the bot sent, and where a run ran.

`benchmarks.private_latency` and `benchmarks.group_fairness` use `bot_against_fake`: the bot
runs in this process (``bot.app.running_bot``) against the in-process Bot API server on loopback
(``bot.playground.botapi.BotApiServer``, "the fake") with Telegram's real limits on both sides:
the bot is told scale 1 and the fake enforces ``RateLimits()`` (30/s overall, 1/s per private
chat, 20/min per group), answering 429 when they are broken. Only these entry points are used,
so the scripts run unchanged against any build of the bot that keeps them:
``running_bot(settings, *, clock=None, poll_timeout=30)``, ``Settings`` and the fake's scripting
API (``send_message``, ``press_button``, ``wait_for_call``, ``calls``). Questions and their
buttons are read from the messages the bot sent (the result of its ``sendMessage``), never from
the database.

Times are ``time.monotonic()``: a press is timed when it is queued for the bot's long poll, a
bot message when its request arrives at the fake (``ApiCall.time``, before the fake's added
latency, i.e. when Telegram would have it). `benchmarks.answers` (the fake in its own process)
and `benchmarks.fanout` (the bot in its own process) use the pieces below it.
"""

from __future__ import annotations

import logging
import math
import os
import platform
import subprocess
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.harness.decks import one_answer_decks
from bot.app import running_bot
from bot.config import Settings
from bot.playground.botapi import ApiCall, BotApiServer, FakeUser, RateLimits

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_LATENCY_MS = 20.0
Button = tuple[str, str]  # (text, callback_data)
# Telegram's flood limits, as the fake enforces them (RateLimits) and the bot assumes them.
OVERALL_PER_SECOND = 30
PRIVATE_PER_SECOND = 1
GROUP_PER_MINUTE = 20


# -- figures ------------------------------------------------------------------------------------


def percentile(values: Sequence[float], share: float, empty: float = math.nan) -> float:
    """Nearest-rank percentile (``empty`` for no values)."""
    ordered = sorted(values)
    if not ordered:
        return empty
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    if not ordered:
        return math.nan
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


@dataclass(frozen=True)
class Summary:
    n: int
    p50: float
    p95: float
    max: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Summary:
        return cls(
            len(values),
            percentile(values, 0.50),
            percentile(values, 0.95),
            max(values, default=math.nan),
        )


def ms(seconds: float | None) -> str:
    return "—" if seconds is None or math.isnan(seconds) else f"{seconds * 1000:.0f}"


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Plain aligned columns: the first left-aligned, the others right-aligned."""
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]

    def line(row: Sequence[str]) -> str:
        cells = [str(row[0]).ljust(widths[0])]
        cells += [str(cell).rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)]
        return "  ".join(cells).rstrip()

    return [line(header), line(["-" * w for w in widths]), *(line(row) for row in rows)]


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


# -- the bot against the fake -------------------------------------------------------------------


class LogCounter(logging.Handler):
    """Counts what the bot logs at WARNING and above; keeps the first few lines."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0
        self.first: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1
        if len(self.first) < 5:
            error = record.exc_info[1] if record.exc_info else None
            detail = f": {type(error).__name__}: {error}" if error else ""
            self.first.append(f"{record.name}: {record.getMessage()}{detail}")


@contextmanager
def counting_logs(log: LogCounter | None) -> Iterator[None]:
    """This process logs at WARNING and above, counted by ``log`` for the block."""
    root = logging.getLogger()
    if log is not None:
        root.addHandler(log)
    root.setLevel(logging.WARNING)
    try:
        yield
    finally:
        if log is not None:
            root.removeHandler(log)


def telegram_limits(scale: float = 1.0) -> RateLimits:
    """Telegram's limits for the fake, every rate multiplied by ``scale``."""
    return RateLimits(
        overall_per_second=OVERALL_PER_SECOND,
        private_per_second=PRIVATE_PER_SECOND,
        group_per_minute=GROUP_PER_MINUTE,
        factor=scale,
    )


def bot_settings(
    url: str, token: str, database: Path, scale: float = 1.0, **extra: Any
) -> Settings:
    """The bot's settings against a fake at ``url``: no .env file, its limiter told ``scale``,
    the one-answer decks (`benchmarks.harness.decks`); ``extra`` are more ``Settings`` fields
    (e.g. quiz_open_seconds)."""
    extra.setdefault("content_dir", one_answer_decks())
    return Settings(
        telegram_bot_token=token,  # type: ignore[arg-type]
        database=str(database),
        api_base_url=url,  # type: ignore[arg-type]
        rate_limit_scale=scale,
        _env_file=None,
        **extra,
    )


@asynccontextmanager
async def bot_against_fake(
    latency_ms: float, log: LogCounter | None = None, **settings: Any
) -> AsyncIterator[BotApiServer]:
    """A fresh fake (Telegram's limits, ``latency_ms`` added to each call), a fresh database and
    the bot polling it; ``settings`` are extra ``Settings`` fields (e.g. quiz_open_seconds)."""
    with counting_logs(log), tempfile.TemporaryDirectory(prefix="quizbot-bench-") as tmp:
        async with BotApiServer(latency=latency_ms / 1000, limits=telegram_limits()) as fake:
            config = bot_settings(fake.url, fake.token, Path(tmp) / "quizbot.sqlite3", **settings)
            async with running_bot(config):
                yield fake


def member(user_id: int, name: str = "Member") -> FakeUser:
    return FakeUser(user_id, name, str(user_id), f"user{user_id}")


# -- reading what the bot sent ------------------------------------------------------------------


def chat_of(call: ApiCall) -> Any:
    chat_id = call.params.get("chat_id")
    if isinstance(chat_id, str) and chat_id.lstrip("-").isdigit():
        return int(chat_id)
    return chat_id


def buttons(message: Any) -> list[Button]:
    """The callback buttons of a message dict as the bot sent it (its reply_markup)."""
    if not isinstance(message, dict):
        return []
    markup = message.get("reply_markup") or {}
    return [
        (str(b.get("text", "")), str(b["callback_data"]))
        for row in markup.get("inline_keyboard", [])
        for b in row
        if "callback_data" in b
    ]


def answer_buttons(message: Any) -> list[str]:
    """callback_data of a question's option buttons (`a:…`; not `Next ▶`, `⚑ Report` or such)."""
    return [data for _, data in buttons(message) if data.startswith("a:")]


def button_with(message: Any, text: str) -> str | None:
    found = [data for label, data in buttons(message) if text.lower() in label.lower()]
    return found[0] if len(found) == 1 else None


def is_question(call: ApiCall, chat_id: int) -> bool:
    """A message the bot sent to ``chat_id`` with two or more option buttons."""
    return (
        call.method == "sendMessage"
        and call.ok
        and chat_of(call) == chat_id
        and len(answer_buttons(call.result)) >= 2
    )


def sent_to(chat_id: int) -> Callable[[ApiCall], bool]:
    return lambda call: call.ok and chat_of(call) == chat_id


def message_id(call: ApiCall) -> int:
    return int(call.result["message_id"])


# -- where and on what it ran -------------------------------------------------------------------


def _git(*args: str) -> str:
    try:
        done = subprocess.run(
            ["git", "--no-optional-locks", "-C", str(ROOT), *args],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout.strip()


def describe_run(latency_ms: float) -> list[str]:
    """Code (commit, whether the tree has changes), machine and load, for the report."""
    commit = _git("log", "-1", "--format=%h %s") or "(not a git checkout)"
    dirty = _git("status", "--porcelain", "--untracked-files=no")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    import telegram

    return [
        f"code: {commit}{' (with uncommitted changes)' if dirty else ''}",
        f"machine: {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"python-telegram-bot {telegram.__version__}; load average {load}",
        f"fake Bot API: {latency_ms:g} ms per call, RateLimits() (30/s, 1/s per private chat, "
        "20/min per group); bot rate_limit_scale=1",
    ]
