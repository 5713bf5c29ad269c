"""The bot's process and the fake of `benchmarks.fanout`.

The bot runs as `python -m bot` in a child process (exactly as operators run it, with
QUIZBOT_RATE_LIMIT_SCALE and log level WARNING), so its memory can be read from /proc (VmHWM,
sampled every 100 ms) and it can be SIGKILLed. The fake Bot API runs in the benchmark's own
event loop and keeps the question messages it delivered, per chat.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, BinaryIO

from benchmarks.harness import ROOT
from benchmarks.harness.decks import one_answer_decks
from bot.playground.botapi import BotApiServer, JsonDict, RateLimits

SAMPLE_SECONDS = 0.1  # RSS sampling interval
STARTUP_TIMEOUT = 60.0
STOP_TIMEOUT = 30.0


class FanoutFake(BotApiServer):
    """The fake Bot API, also keeping the question messages it delivered, per chat."""

    def __init__(self, *, limits: RateLimits, latency: float) -> None:
        super().__init__(latency=latency, limits=limits)
        self.questions: dict[int, list[int]] = {}  # chat id -> message ids of its questions
        self.delivered = 0
        self.other_sends = 0  # accepted sendMessage calls without an inline keyboard

    async def _run(self, method: str, params: JsonDict) -> Any:
        result = await super()._run(method, params)
        if method == "sendMessage" and isinstance(result, dict):
            chat_id = params.get("chat_id")
            if result.get("reply_markup") and isinstance(chat_id, int):
                self.questions.setdefault(chat_id, []).append(int(result["message_id"]))
                self.delivered += 1
            else:
                self.other_sends += 1
        return result

    def getupdates_since(self, index: int) -> bool:
        return any(call.method == "getUpdates" for call in self.calls[index:])


def bot_environment(fake: BotApiServer, database: Path, scale: float) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("QUIZBOT_") and k != "TELEGRAM_BOT_TOKEN"
    }
    env.update(
        TELEGRAM_BOT_TOKEN=fake.token,
        QUIZBOT_API_BASE_URL=fake.url,
        QUIZBOT_DATABASE=str(database),
        QUIZBOT_RATE_LIMIT_SCALE=f"{scale:g}",
        QUIZBOT_TIMEZONE="UTC",
        QUIZBOT_LOG_LEVEL="WARNING",
        QUIZBOT_CONTENT_DIR=str(one_answer_decks()),
    )
    return env


def _status_kb(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM of ``pid`` in kB (empty once the process is gone)."""
    values: dict[str, int] = {}
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(("VmRSS:", "VmHWM:")):
                    name, value = line.split(":", 1)
                    values[name] = int(value.split()[0])
    except (FileNotFoundError, ProcessLookupError, ValueError):
        return {}
    return values


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of ``pid`` so far (None once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_share(samples: Sequence[tuple[float, float]], start: float, end: float) -> float:
    """CPU seconds per wall second between the samples nearest ``start`` and ``end``."""
    if len(samples) < 2 or end <= start:
        return math.nan
    first = min(samples, key=lambda s: abs(s[0] - start))
    last = min(samples, key=lambda s: abs(s[0] - end))
    return (last[1] - first[1]) / (last[0] - first[0]) if last[0] > first[0] else math.nan


class BotProcess:
    """`python -m bot` in a child process; samples its memory until it exits."""

    def __init__(self, env: dict[str, str], log_path: Path) -> None:
        self.env = env
        self.log_path = log_path
        self.process: asyncio.subprocess.Process | None = None
        self.peak_hwm_kb = 0  # the kernel's high-water mark of the resident set
        self.peak_rss_kb = 0  # the largest VmRSS seen by the sampler
        self.samples = 0
        self.cpu: list[tuple[float, float]] = []  # (monotonic, the bot's CPU seconds)
        self.own_cpu: list[tuple[float, float]] = []  # the same for this process (the fake)
        self.started_at = 0.0
        self._sampler: asyncio.Task[None] | None = None

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    @property
    def returncode(self) -> int | None:
        return None if self.process is None else self.process.returncode

    def _open_log(self) -> BinaryIO:
        return open(self.log_path, "ab")

    async def start(self) -> None:
        with self._open_log() as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                cwd=ROOT,
                env=self.env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=log,
            )
        self.started_at = time.monotonic()
        self._sampler = asyncio.create_task(self._sample())

    def sample(self) -> None:
        values = _status_kb(self.pid)
        cpu = _cpu_seconds(self.pid)
        now = time.monotonic()
        if cpu is not None:
            self.cpu.append((now, cpu))
            self.own_cpu.append((now, time.process_time()))
        if values:
            self.samples += 1
            self.peak_hwm_kb = max(self.peak_hwm_kb, values.get("VmHWM", 0))
            self.peak_rss_kb = max(self.peak_rss_kb, values.get("VmRSS", 0))

    async def _sample(self) -> None:
        assert self.process is not None
        while self.process.returncode is None:
            self.sample()
            await asyncio.sleep(SAMPLE_SECONDS)

    async def wait_ready(self, fake: FanoutFake, since: int) -> float:
        """Seconds from the start until the bot's first getUpdates (it is polling)."""
        assert self.process is not None
        exited = asyncio.create_task(self.process.wait())
        polling = asyncio.create_task(
            fake.wait_until(
                lambda: fake.getupdates_since(since), STARTUP_TIMEOUT, what="the first getUpdates"
            )
        )
        try:
            done, _ = await asyncio.wait({exited, polling}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (exited, polling):
                if not task.done():
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
        if exited in done:
            raise RuntimeError(
                f"the bot exited with code {self.process.returncode} while starting; its log:\n"
                + self.log_tail()
            )
        polling.result()
        return time.monotonic() - self.started_at

    async def terminate(self) -> int | None:
        """SIGTERM, then wait (SIGKILL after STOP_TIMEOUT); the exit code."""
        assert self.process is not None
        if self.process.returncode is None:
            self.sample()
            self.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.process.wait(), STOP_TIMEOUT)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
        await self._stop_sampler()
        return self.process.returncode

    async def kill(self) -> None:
        assert self.process is not None
        self.sample()
        self.process.send_signal(signal.SIGKILL)
        await self.process.wait()
        await self._stop_sampler()

    async def _stop_sampler(self) -> None:
        if self._sampler is not None:
            self._sampler.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sampler

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return ""

    def log_tail(self, lines: int = 30) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])
