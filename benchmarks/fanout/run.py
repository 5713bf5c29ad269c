"""One fan-out of `benchmarks.fanout`: seed, start the bot, wait until every chat has its
question and the ledger is closed, stop the bot, and take the figures from the fake's record of
every request (see `benchmarks.fanout` for what each one means)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import math
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from benchmarks import harness
from benchmarks.fanout.bot import BotProcess, FanoutFake, bot_environment, cpu_share
from benchmarks.fanout.ledger import Ledger, any_pending, chat_ids, read_ledger, seed
from bot.playground.botapi.ratelimit import is_rate_limited_method
from storage.sqlite import SqliteStore

OVERALL_PER_SECOND = harness.OVERALL_PER_SECOND
TARGET_SHARE = 0.95
RSS_TARGET_BYTES = 150 * 10**6  # "150 MB" (10^6 bytes, the stricter reading)
LEAD_SECONDS = 6.0  # the slot is this long after the database is prepared
LEDGER_POLL_SECONDS = 0.5
SETTLE_SECONDS = 2.0  # after the last push: time for a late duplicate to show up
PROGRESS_SECONDS = 10.0


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
            and self.ledger.rows == self.chats
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
    store: SqliteStore,
    chats: Sequence[int],
    deadline: float,
    progress: Callable[[], None] | None = None,
) -> bool:
    """Until every chat has its question and no ledger row is pending (True), the bot exits or
    ``deadline`` passes (False). A chat's question comes from its ledger row, so once every chat
    has one, every row has been written."""
    wanted = set(chats)
    next_progress = time.monotonic() + PROGRESS_SECONDS
    while time.monotonic() < deadline and bot.returncode is None:
        if wanted.issubset(fake.questions) and not await any_pending(store):
            return True
        if progress is not None and time.monotonic() >= next_progress:
            progress()
            next_progress += PROGRESS_SECONDS
        await asyncio.sleep(LEDGER_POLL_SECONDS)
    return False


def timeout_for(chats: int, scale: float) -> float:
    return chats / (OVERALL_PER_SECOND * scale) * 1.5 + 60.0


@dataclass
class Setup:
    """A fake, a seeded database (and the benchmark's own connection to it), the bot's
    environment and the slot every chat is due at."""

    fake: FanoutFake
    store: SqliteStore
    folder: Path
    env: dict[str, str]
    slot: datetime
    slot_mono: float

    async def ledger(self, chats: Sequence[int]) -> Ledger:
        return await read_ledger(self.store, chats, self.slot.date())


@asynccontextmanager
async def prepared(
    chats: int, scale: float, latency_ms: float, prefix: str
) -> AsyncIterator[Setup]:
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        database = Path(tmp) / "quizbot.sqlite3"
        limits = harness.telegram_limits(scale)
        async with FanoutFake(limits=limits, latency=latency_ms / 1000) as fake:
            store = await SqliteStore.open(database)
            try:
                slot, slot_mono = await seed(store, chats, LEAD_SECONDS)
                env = bot_environment(fake, database, scale)
                with _fake_without_gc_pauses():
                    yield Setup(fake, store, Path(tmp), env, slot, slot_mono)
            finally:
                await store.close()


@contextlib.contextmanager
def _fake_without_gc_pauses() -> Iterator[None]:
    """The fake stands in for Telegram's servers but keeps every call and message it saw, so
    its collector's full passes grow into pauses of tens of ms that stall the whole fake (and
    the bot's sends with it). Telegram has no such pauses to charge the bot for: the fake's
    process does not collect during a run (its memory stays bounded by the run's size)."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()


async def run_fanout(chats: int, scale: float, latency_ms: float, give_up_after: float) -> Fanout:
    result = Fanout(chats, scale, latency_ms)
    ids = chat_ids(chats)
    started = time.monotonic()
    async with prepared(chats, scale, latency_ms, "quizbot-fanout-") as setup:
        fake, slot_mono = setup.fake, setup.slot_mono
        bot = BotProcess(setup.env, setup.folder / "bot.log")
        await bot.start()
        try:
            result.ready_after = await bot.wait_ready(fake, 0)
            print(
                f"bot pid {bot.pid} polling after {result.ready_after:.1f} s; "
                f"{chats} chats due at {setup.slot:%H:%M:%S} UTC "
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

            deadline = slot_mono + give_up_after
            done = await wait_done(fake, bot, setup.store, ids, deadline, progress=progress)
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
        result.ledger = await setup.ledger(ids)
        result.ledger_mismatch = check_ledger(result.ledger, fake)
    result.wall = time.monotonic() - started
    return result
