"""Daily fan-out: `python -m benchmarks.fanout`.

N group chats all have their daily question due at the same moment. The bot runs as a separate
process (`python -m bot`, exactly as operators run it) against the fake Bot API, which runs in
this process's event loop and enforces Telegram's flood limits (30 msg/s overall, 20/min per
group, 1/s per private chat; ``--scale k`` multiplies every limit by k, the bot being told the
same through QUIZBOT_RATE_LIMIT_SCALE), answering 429 with ``retry_after`` when they are broken.

Before the bot starts, the database is created with every migration and filled with N
supergroups and N enabled ``daily_schedules`` rows whose ``next_slot_at`` is a few seconds
ahead (the chats' zone is UTC, ``local_time`` is that moment's HH:MM). Then, from the fake's
record of every request:

* achieved rate = question messages delivered / (last − first arrival), as a share of the
  overall limit (30 × scale per second);
* the largest number of rate-limited requests (send*/edit*/… that the fake accepted) in any
  sliding 1-second window, and in any 1/scale-second window (the window the fake enforces);
* 429s received, duplicates (chats with more than one question message), missing (chats with
  none once the bot is done or the time is up);
* the peak RSS of the bot's process (the kernel's VmHWM from /proc, sampled every 100 ms);
* the delivery ledger afterwards: every ``daily_pushes`` row 'sent', with the message id the
  fake gave that chat's question.

``--kill`` instead SIGKILLs the bot at a random point (seeded) of a 500-chat fan-out, after
between 10% and 90% of the questions were delivered, restarts it on the same database and
counts lost pushes (chats that never got their question) and duplicated ones. It also shows the
bound a ledger written before each send and closed after it allows: a push can only be sent
twice if its question was delivered but not yet marked 'sent' when the bot died.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import signal
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from random import Random
from typing import Any, BinaryIO

from storage.sqlite.db import Database
from tests.fakes import FakeBotApi, JsonDict, RateLimits
from tests.fakes.ratelimit import is_rate_limited_method

ROOT = Path(__file__).resolve().parent.parent
FIRST_CHAT_ID = -1_001_000_000_000  # supergroup ids count down from here
OVERALL_PER_SECOND = 30
PRIVATE_PER_SECOND = 1
GROUP_PER_MINUTE = 20
TARGET_SHARE = 0.95
RSS_TARGET_BYTES = 150 * 10**6  # "150 MB" (10^6 bytes, the stricter reading)
DEFAULT_CHATS = 2_000
KILL_CHATS = 500
LEAD_SECONDS = 6.0  # the slot is this long after the database is prepared
SAMPLE_SECONDS = 0.1  # RSS sampling interval
LEDGER_POLL_SECONDS = 0.5
SETTLE_SECONDS = 2.0  # after the last push: time for a late duplicate to show up
STARTUP_TIMEOUT = 60.0
STOP_TIMEOUT = 30.0
PROGRESS_SECONDS = 10.0


# -- the fake -----------------------------------------------------------------------------------


class FanoutFake(FakeBotApi):
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


# -- the database -------------------------------------------------------------------------------


def chat_ids(count: int) -> list[int]:
    return [FIRST_CHAT_ID - i for i in range(count)]


async def prepare_database(path: Path, count: int, slot: datetime) -> None:
    """Every migration, then ``count`` supergroups whose daily question is due at ``slot``."""
    now_ms = int(time.time() * 1000)
    slot_ms = int(slot.timestamp() * 1000)
    db = await Database.open(path)
    try:
        async with db.transaction() as conn:
            await conn.executemany(
                "INSERT INTO chats (id, kind, title, timezone, created_at) "
                "VALUES (?, 'supergroup', ?, 'UTC', ?)",
                [
                    (chat_id, f"Study group {i}", now_ms)
                    for i, chat_id in enumerate(chat_ids(count))
                ],
            )
            await conn.executemany(
                "INSERT INTO daily_schedules (chat_id, local_time, enabled, next_slot_at, "
                "next_day, updated_at) VALUES (?, ?, 1, ?, ?, ?)",
                [
                    (chat_id, slot.strftime("%H:%M"), slot_ms, slot.date().isoformat(), now_ms)
                    for chat_id in chat_ids(count)
                ],
            )
    finally:
        await db.close()


@dataclass
class Ledger:
    statuses: Counter[str]
    sent: dict[int, int | None]  # chat id -> message id of its 'sent' row
    asks: int
    asks_without_message: int
    # Rows not 'sent': (status, has an ask, attempts, last error) -> how many.
    unsent: Counter[tuple[str, bool, int, str]] = field(default_factory=Counter)

    @property
    def pending(self) -> int:
        return self.statuses.get("pending", 0)


def read_ledger(path: Path) -> Ledger:
    with contextlib.closing(sqlite3.connect(path, timeout=10)) as conn:
        statuses: Counter[str] = Counter(
            dict(conn.execute("SELECT status, count(*) FROM daily_pushes GROUP BY status"))
        )
        sent = dict(
            conn.execute("SELECT chat_id, message_id FROM daily_pushes WHERE status = 'sent'")
        )
        asks, without = conn.execute(
            "SELECT count(*), count(*) - count(message_id) FROM asks"
        ).fetchone()
        unsent: Counter[tuple[str, bool, int, str]] = Counter(
            {
                (str(status), bool(has_ask), int(attempts), str(error or "")): int(n)
                for status, has_ask, attempts, error, n in conn.execute(
                    "SELECT status, ask_id IS NOT NULL, attempts, last_error, count(*) "
                    "FROM daily_pushes WHERE status != 'sent' GROUP BY 1, 2, 3, 4"
                )
            }
        )
    return Ledger(statuses, sent, int(asks), int(without), unsent)


def count_pending(path: Path) -> tuple[int, int]:
    """(ledger rows, pending ledger rows): cheap enough to poll while the bot runs."""
    with contextlib.closing(sqlite3.connect(path, timeout=10)) as conn:
        total, pending = conn.execute(
            "SELECT count(*), coalesce(sum(status = 'pending'), 0) FROM daily_pushes"
        ).fetchone()
    return int(total), int(pending)


# -- the bot's process --------------------------------------------------------------------------


def bot_environment(fake: FakeBotApi, database: Path, scale: float) -> dict[str, str]:
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


# -- measuring ----------------------------------------------------------------------------------


def max_in_window(times: Sequence[float], width: float) -> int:
    """The most of the sorted ``times`` in any half-open window (t − width, t], as the fake's
    sliding windows count them."""
    best = 0
    start = 0
    for end, moment in enumerate(times):
        while times[start] <= moment - width:
            start += 1
        best = max(best, end - start + 1)
    return best


def duplicates_and_missing(fake: FanoutFake, chats: Sequence[int]) -> tuple[int, int, int]:
    """(chats with > 1 question, extra question messages, chats with none)."""
    counts = [len(fake.questions.get(chat_id, ())) for chat_id in chats]
    duplicated = sum(1 for c in counts if c > 1)
    extra = sum(c - 1 for c in counts if c > 1)
    missing = sum(1 for c in counts if c == 0)
    return duplicated, extra, missing


def bot_log_summary(text: str) -> tuple[bool, int, list[str]]:
    """(has a traceback, warning/error lines, the first few of them and the first traceback)."""
    lines = text.splitlines()
    flagged = [
        line
        for line in lines
        if any(f" {level} " in line for level in ("WARNING", "ERROR", "CRITICAL"))
    ]
    shown = flagged[:5]
    start = next((i for i, line in enumerate(lines) if line.startswith("Traceback")), None)
    if start is not None:
        end = next(
            (i for i in range(start + 1, len(lines)) if lines[i] and not lines[i][0].isspace()),
            len(lines) - 1,
        )
        block = lines[start : end + 1]
        shown += block if len(block) <= 16 else [*block[:3], "  …", *block[-12:]]
    return start is not None, len(flagged), shown


@dataclass
class Fanout:
    chats: int
    scale: float
    latency_ms: float
    delivered: int = 0
    duplicated: int = 0
    extra: int = 0
    missing: int = 0
    other_sends: int = 0
    first_send_after_slot: float = math.nan
    span: float = math.nan  # first → last question arrival
    rate: float = 0.0
    end_to_end: float = math.nan  # slot → last question arrival
    max_1s: int = 0
    max_window: int = 0  # in any 1/scale-second window
    attempts_max_1s: int = 0  # the same, counting rejected requests too
    rejected_429: int = 0
    bot_cpu: float = math.nan  # CPU seconds per second over the fan-out (1.0 = one core)
    fake_cpu: float = math.nan  # the same for this process, where the fake runs
    peak_hwm_kb: int = 0
    peak_rss_kb: int = 0
    rss_samples: int = 0
    ready_after: float = math.nan
    timed_out: bool = False
    exit_code: int | None = None
    traceback: bool = False
    log_lines: int = 0
    log_first: list[str] = field(default_factory=list)
    calls: Counter[str] = field(default_factory=Counter)  # "method status" of every request
    fake_errors: int = 0  # bugs in the fake (answered with 500)
    ledger: Ledger | None = None
    ledger_mismatch: int = 0  # 'sent' rows whose message id is not that chat's question
    wall: float = 0.0

    @property
    def limit(self) -> float:
        return OVERALL_PER_SECOND * self.scale

    @property
    def share(self) -> float:
        return self.rate / self.limit

    @property
    def ledger_ok(self) -> bool:
        return (
            self.ledger is not None
            and len(self.ledger.sent) == self.chats
            and sum(self.ledger.statuses.values()) == self.chats
            and self.ledger_mismatch == 0
        )

    def checks(self) -> list[tuple[str, bool]]:
        return [
            (f"≥ {TARGET_SHARE:.0%} of the limit", self.share >= TARGET_SHARE),
            (
                f"≤ {OVERALL_PER_SECOND} in any 1/scale-s window",
                self.max_window <= OVERALL_PER_SECOND,
            ),
            ("zero 429s", self.rejected_429 == 0),
            ("zero duplicates", self.duplicated == 0),
            ("zero missing", self.missing == 0),
            ("peak RSS ≤ 150 MB", self.peak_hwm_kb * 1024 <= RSS_TARGET_BYTES),
            ("ledger: every push 'sent' once", self.ledger_ok),
            ("clean exit on SIGTERM", self.exit_code == 0 and not self.traceback),
        ]

    @property
    def passed(self) -> bool:
        return all(ok for _, ok in self.checks())


def measure(fake: FanoutFake, chats: Sequence[int], result: Fanout, slot_mono: float) -> None:
    """Fill ``result`` from the fake's record of the requests."""
    questions = sorted(
        call.time
        for call in fake.calls
        if call.method == "sendMessage" and call.ok and (call.result or {}).get("reply_markup")
    )
    accepted = sorted(
        call.time
        for call in fake.calls
        if is_rate_limited_method(call.method) and call.status not in (None, 429)
    )
    attempts = sorted(call.time for call in fake.calls if is_rate_limited_method(call.method))
    result.delivered = len(questions)
    result.duplicated, result.extra, result.missing = duplicates_and_missing(fake, chats)
    result.other_sends = fake.other_sends
    if questions:
        result.first_send_after_slot = questions[0] - slot_mono
        result.span = questions[-1] - questions[0]
        result.rate = len(questions) / result.span if result.span > 0 else 0.0
        result.end_to_end = questions[-1] - slot_mono
    result.max_1s = max_in_window(accepted, 1.0)
    result.max_window = max_in_window(accepted, 1.0 / result.scale)
    result.attempts_max_1s = max_in_window(attempts, 1.0)
    result.rejected_429 = fake.rejected_429
    result.calls = Counter(f"{call.method} {call.status}" for call in fake.calls)
    result.fake_errors = len(fake.internal_errors)


def check_ledger(ledger: Ledger, fake: FanoutFake) -> int:
    """'sent' rows whose message id is not one of the questions the fake delivered there."""
    return sum(
        1
        for chat_id, message_id in ledger.sent.items()
        if message_id not in fake.questions.get(chat_id, ())
    )


async def wait_done(
    fake: FanoutFake,
    bot: BotProcess,
    database: Path,
    chats: Sequence[int],
    deadline: float,
    progress: Callable[[], None] | None = None,
) -> bool:
    """Until every chat has its question and no ledger row is pending (True), the bot exits or
    ``deadline`` passes (False)."""
    wanted = set(chats)
    next_progress = time.monotonic() + PROGRESS_SECONDS
    while time.monotonic() < deadline and bot.returncode is None:
        if wanted.issubset(fake.questions):
            total, pending = await asyncio.to_thread(count_pending, database)
            if total >= len(wanted) and pending == 0:
                return True
        if progress is not None and time.monotonic() >= next_progress:
            progress()
            next_progress += PROGRESS_SECONDS
        await asyncio.sleep(LEDGER_POLL_SECONDS)
    return False


def _limits(scale: float) -> RateLimits:
    return RateLimits(
        overall_per_second=OVERALL_PER_SECOND,
        private_per_second=PRIVATE_PER_SECOND,
        group_per_minute=GROUP_PER_MINUTE,
        factor=scale,
    )


def _timeout(chats: int, scale: float) -> float:
    return chats / (OVERALL_PER_SECOND * scale) * 1.5 + 60.0


def _slot() -> tuple[datetime, float]:
    """The due moment (whole seconds, UTC) and the same moment on the monotonic clock."""
    slot = (datetime.now(UTC) + timedelta(seconds=LEAD_SECONDS)).replace(microsecond=0)
    return slot, time.monotonic() + (slot.timestamp() - time.time())


async def run_fanout(chats: int, scale: float, latency_ms: float, give_up_after: float) -> Fanout:
    result = Fanout(chats, scale, latency_ms)
    ids = chat_ids(chats)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="quizbot-fanout-") as tmp:
        database = Path(tmp) / "quizbot.sqlite3"
        async with FanoutFake(limits=_limits(scale), latency=latency_ms / 1000) as fake:
            slot, slot_mono = _slot()
            await prepare_database(database, chats, slot)
            bot = BotProcess(bot_environment(fake, database, scale), Path(tmp) / "bot.log")
            await bot.start()
            try:
                result.ready_after = await bot.wait_ready(fake, 0)
                print(
                    f"bot pid {bot.pid} polling after {result.ready_after:.1f} s; "
                    f"{chats} chats due at {slot:%H:%M:%S} UTC "
                    f"({slot_mono - time.monotonic():+.1f} s from now)",
                    flush=True,
                )

                def progress() -> None:
                    print(
                        f"  {time.monotonic() - slot_mono:6.0f} s after the slot: "
                        f"{fake.delivered} questions, {fake.rejected_429} 429s, "
                        f"bot RSS peak {bot.peak_hwm_kb / 1000:.0f} MB",
                        flush=True,
                    )

                done = await wait_done(
                    fake, bot, database, ids, slot_mono + give_up_after, progress=progress
                )
                result.timed_out = not done
                if done:
                    await asyncio.sleep(SETTLE_SECONDS)
            finally:
                result.exit_code = await bot.terminate()
            with contextlib.suppress(TimeoutError):
                await fake.idle(settle=0.1, timeout=10)
            measure(fake, ids, result, slot_mono)
            result.peak_hwm_kb, result.peak_rss_kb = bot.peak_hwm_kb, bot.peak_rss_kb
            result.rss_samples = bot.samples
            if result.delivered:
                first_at = slot_mono + result.first_send_after_slot
                last_at = first_at + result.span
                result.bot_cpu = cpu_share(bot.cpu, first_at, last_at)
                result.fake_cpu = cpu_share(bot.own_cpu, first_at, last_at)
            result.traceback, result.log_lines, result.log_first = bot_log_summary(bot.log_text())
            result.ledger = read_ledger(database)
            result.ledger_mismatch = check_ledger(result.ledger, fake)
    result.wall = time.monotonic() - started
    return result


# -- kill -9 in the middle ----------------------------------------------------------------------


@dataclass
class KillRun:
    seed: int
    chats: int
    scale: float
    kill_after: int = 0  # the delivered count the kill waited for
    delivered_at_kill: int = 0  # questions delivered when the bot was dead
    inflight_at_kill: int = 0  # rate-limited requests the fake was still handling
    unconfirmed_at_kill: int = 0  # delivered, but the ledger row not 'sent' (the bound)
    pending_at_kill: int = 0
    ledger_rows_at_kill: int = 0
    lost: int = 0
    duplicated: int = 0
    extra: int = 0
    rejected_429: int = 0
    timed_out: bool = False
    exit_code: int | None = None
    traceback: bool = False
    ledger_ok: bool = False
    peak_hwm_kb: int = 0
    first_log: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return (
            self.lost == 0
            and self.duplicated <= self.unconfirmed_at_kill
            and not self.timed_out
            and self.ledger_ok
        )


async def run_kill(seed: int, chats: int, scale: float, latency_ms: float) -> KillRun:
    rng = Random(seed)
    result = KillRun(seed, chats, scale)
    result.kill_after = rng.randint(math.ceil(chats * 0.1), math.floor(chats * 0.9))
    ids = chat_ids(chats)
    with tempfile.TemporaryDirectory(prefix="quizbot-fanout-kill-") as tmp:
        database = Path(tmp) / "quizbot.sqlite3"
        async with FanoutFake(limits=_limits(scale), latency=latency_ms / 1000) as fake:
            slot, _ = _slot()
            await prepare_database(database, chats, slot)
            env = bot_environment(fake, database, scale)
            first = BotProcess(env, Path(tmp) / "bot-1.log")
            await first.start()
            try:
                await first.wait_ready(fake, 0)
                await fake.wait_until(
                    lambda: fake.delivered >= result.kill_after,
                    _timeout(chats, scale),
                    what=f"{result.kill_after} questions",
                )
            except BaseException:
                await first.terminate()
                raise
            # Counted just before the signal: requests the fake had not answered yet.
            result.inflight_at_kill = sum(
                1 for c in fake.calls if is_rate_limited_method(c.method) and c.status is None
            )
            await first.kill()
            # Requests already in the fake's socket buffers are still served: give them a moment.
            await asyncio.sleep(0.5)
            result.delivered_at_kill = fake.delivered
            ledger = await asyncio.to_thread(read_ledger, database)
            result.pending_at_kill = ledger.pending
            result.ledger_rows_at_kill = sum(ledger.statuses.values())
            result.unconfirmed_at_kill = sum(1 for c in fake.questions if c not in ledger.sent)
            print(
                f"  seed {seed}: SIGKILL after {result.kill_after} questions "
                f"(delivered {result.delivered_at_kill}, in flight at the fake "
                f"{result.inflight_at_kill}, delivered but not 'sent' in the ledger "
                f"{result.unconfirmed_at_kill}, pending rows {result.pending_at_kill}); "
                "restarting",
                flush=True,
            )
            second = BotProcess(env, Path(tmp) / "bot-2.log")
            since = len(fake.calls)
            await second.start()
            try:
                await second.wait_ready(fake, since)
                done = await wait_done(
                    fake, second, database, ids, time.monotonic() + _timeout(chats, scale)
                )
                result.timed_out = not done
                if done:
                    await asyncio.sleep(SETTLE_SECONDS)
            finally:
                result.exit_code = await second.terminate()
            with contextlib.suppress(TimeoutError):
                await fake.idle(settle=0.1, timeout=10)
            result.duplicated, result.extra, result.lost = duplicates_and_missing(fake, ids)
            result.rejected_429 = fake.rejected_429
            final = read_ledger(database)
            result.ledger_ok = (
                len(final.sent) == chats
                and sum(final.statuses.values()) == chats
                and check_ledger(final, fake) == 0
            )
            result.peak_hwm_kb = max(first.peak_hwm_kb, second.peak_hwm_kb)
            result.traceback, _, result.first_log = bot_log_summary(
                first.log_text() + second.log_text()
            )
    return result


# -- output -------------------------------------------------------------------------------------


def _verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def _mb(kb: int) -> str:
    return f"{kb * 1024 / 10**6:.1f} MB"


def report(result: Fanout) -> list[str]:
    window = 1.0 / result.scale
    ledger = result.ledger
    statuses = (
        ", ".join(f"{n} {status}" for status, n in sorted(ledger.statuses.items()))
        if ledger and ledger.statuses
        else "no rows"
    )
    checks = dict(result.checks())
    rows: list[tuple[str, str, bool | None]] = [
        ("chats (supergroups)", f"{result.chats:,}", None),
        (
            "limits",
            f"×{result.scale:g}: {result.limit:g} msg/s overall, "
            f"{GROUP_PER_MINUTE * result.scale:g}/min per group; fake latency "
            f"{result.latency_ms:g} ms",
            None,
        ),
        ("question messages delivered", f"{result.delivered:,}", None),
        ("bot polling after start", f"{result.ready_after:.1f} s", None),
        ("first question after the slot", f"{result.first_send_after_slot:.2f} s", None),
        ("fan-out (first → last question)", f"{result.span:.1f} s", None),
        (
            "slot → last question",
            f"{result.end_to_end:.1f} s (at exactly the limit: "
            f"{result.chats / result.limit:.1f} s)",
            None,
        ),
        (
            "achieved rate",
            f"{result.rate:.2f} msg/s = {result.share:.1%} of {result.limit:g}/s",
            checks[f"≥ {TARGET_SHARE:.0%} of the limit"],
        ),
        (
            "largest count in any 1 s window",
            f"{result.max_1s} accepted (limit {result.limit:g}); "
            f"{result.attempts_max_1s} incl. rejected",
            result.max_1s <= result.limit,
        ),
    ]
    if result.scale != 1:
        rows.append(
            (
                f"largest count in any {window:g} s window",
                f"{result.max_window} (the fake's window, limit {OVERALL_PER_SECOND})",
                result.max_window <= OVERALL_PER_SECOND,
            )
        )
    rows += [
        (
            "CPU during the fan-out",
            f"bot {result.bot_cpu:.0%} of a core, fake (this process) {result.fake_cpu:.0%}",
            None,
        ),
        ("429s received", f"{result.rejected_429}", checks["zero 429s"]),
        (
            "duplicates (chats with > 1)",
            f"{result.duplicated} ({result.extra} extra messages)",
            checks["zero duplicates"],
        ),
        ("missing (chats with none)", f"{result.missing}", checks["zero missing"]),
        (
            "peak RSS of the bot (VmHWM)",
            f"{_mb(result.peak_hwm_kb)} (largest VmRSS sample {_mb(result.peak_rss_kb)}, "
            f"{result.rss_samples} samples); target ≤ 150 MB at 10,000 chats",
            checks["peak RSS ≤ 150 MB"],
        ),
        (
            "ledger (daily_pushes)",
            f"{statuses}; message id ≠ the fake's: {result.ledger_mismatch}"
            + (
                f"; asks {ledger.asks}, without message id {ledger.asks_without_message}"
                if ledger
                else ""
            ),
            checks["ledger: every push 'sent' once"],
        ),
        (
            "bot exit on SIGTERM",
            f"code {result.exit_code}, {'a Traceback' if result.traceback else 'no traceback'}"
            f", {result.log_lines} warning/error lines",
            checks["clean exit on SIGTERM"],
        ),
    ]
    if result.other_sends:
        rows.append(("other messages sent", f"{result.other_sends}", None))
    if result.timed_out:
        rows.append(("timed out", "the fan-out had not finished when the time was up", False))
    if not result.passed:
        calls = ", ".join(f"{name}: {n}" for name, n in sorted(result.calls.items()))
        rows.append(("requests (method status)", calls, None))
    if ledger and ledger.unsent:
        unsent = "; ".join(
            f"{n} {status}, {'with' if has_ask else 'no'} ask, {attempts} attempts"
            + (f", {error!r}" if error else "")
            for (status, has_ask, attempts, error), n in ledger.unsent.most_common(5)
        )
        rows.append(("ledger rows not sent", unsent, None))
    if result.fake_errors:
        rows.append(("errors inside the fake", f"{result.fake_errors}", False))
    lines = [
        f"  {label:<34} {value}" + (f"  {_verdict(ok)}" if ok is not None else "")
        for label, value, ok in rows
    ]
    lines += [f"    | {line}" for line in result.log_first]
    lines.append(f"  overall: {_verdict(result.passed)} (took {result.wall:.0f} s)")
    return lines


def kill_report(runs: Sequence[KillRun]) -> list[str]:
    lines = [
        "",
        f"{'seed':>4} {'kill at':>7} {'delivered':>9} {'in flight':>9} {'unconfirmed':>11} "
        f"{'lost':>4} {'dup':>4} {'429s':>4} {'ledger':>6} {'exit':>4} {'peak RSS':>9}  verdict",
    ]
    for run in runs:
        lines.append(
            f"{run.seed:>4} {run.kill_after:>7} {run.delivered_at_kill:>9} "
            f"{run.inflight_at_kill:>9} {run.unconfirmed_at_kill:>11} {run.lost:>4} "
            f"{run.duplicated:>4} {run.rejected_429:>4} {'ok' if run.ledger_ok else 'BAD':>6} "
            f"{run.exit_code!s:>4} {_mb(run.peak_hwm_kb):>9}  {_verdict(run.passed)}"
            + (" (timed out)" if run.timed_out else "")
            + (" (traceback in the bot's log)" if run.traceback else "")
        )
    lost = sum(r.lost for r in runs)
    dup = sum(r.duplicated for r in runs)
    bound = sum(r.unconfirmed_at_kill for r in runs)
    lines += [
        "",
        "kill at = delivered questions the SIGKILL waited for; in flight = send requests the fake "
        "was still handling; unconfirmed = questions delivered whose ledger row was not yet "
        "'sent' when the bot died (the most a restart can send twice)",
        f"lost pushes: {lost} {_verdict(lost == 0)}; duplicated pushes: {dup} "
        f"(bound {bound}) {_verdict(dup <= bound)}; never sent twice: "
        f"{'yes' if dup == 0 else 'NO'}",
        f"overall: {_verdict(all(r.passed for r in runs))}",
    ]
    return lines


# -- entry point --------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.fanout",
        description=__doc__.split("\n\n")[0] if __doc__ else "",
    )
    parser.add_argument("--chats", type=int, help=f"group chats ({DEFAULT_CHATS}; --kill: 500)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every limit (1)")
    parser.add_argument("--latency", type=float, default=0.0, help="fake latency per call, ms")
    parser.add_argument("--kill", action="store_true", help="SIGKILL the bot mid-fan-out")
    parser.add_argument("--seed", type=int, default=1, help="first seed of --kill (1)")
    parser.add_argument("--repeat", type=int, default=3, help="--kill runs, seed, seed+1, … (3)")
    parser.add_argument("--timeout", type=float, help="seconds after the slot to give up")
    args = parser.parse_args(argv)
    if args.chats is None:
        args.chats = KILL_CHATS if args.kill else DEFAULT_CHATS
    if args.chats < 10 or args.scale <= 0 or args.repeat < 1:
        parser.error("need --chats ≥ 10, --scale > 0 and --repeat ≥ 1")
    return args


async def run(args: argparse.Namespace) -> int:
    if args.kill:
        print(
            f"daily fan-out, kill -9 and restart: {args.chats} chats, limits ×{args.scale:g}, "
            f"seeds {args.seed}…{args.seed + args.repeat - 1}",
            flush=True,
        )
        runs = [
            await run_kill(seed, args.chats, args.scale, args.latency)
            for seed in range(args.seed, args.seed + args.repeat)
        ]
        for line in kill_report(runs):
            print(line)
        return 0 if all(r.passed for r in runs) else 1
    print(
        f"daily fan-out: {args.chats} group chats due at once, limits ×{args.scale:g} "
        f"({OVERALL_PER_SECOND * args.scale:g} msg/s overall)",
        flush=True,
    )
    timeout = args.timeout if args.timeout is not None else _timeout(args.chats, args.scale)
    result = await run_fanout(args.chats, args.scale, args.latency, timeout)
    for line in report(result):
        print(line)
    return 0 if result.passed else 1


def main(argv: list[str] | None = None) -> int:
    return asyncio.run(run(parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
