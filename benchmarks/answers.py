"""Answers under a crowd: `python -m benchmarks.answers`.

Runs the bot against the fake Bot API over loopback while N scripted members of one supergroup
press the buttons of open questions at a fixed offered rate, with the fake adding 0 ms and 50 ms
to every Bot API call. Per step it prints the achieved answers/s and the p50/p99 time from a
press reaching the fake server's update queue to its `answerCallbackQuery` arriving there.

Two configurations run in the same process, one after the other, each against a fresh fake:

* quizbot: the real bot (`bot.app.running_bot`): its handlers, storage and PTB settings;
* plain: python-telegram-bot with its defaults (updates handled one at a time, the default
  HTTP pool) and one CallbackQueryHandler doing the same answer-and-record work: INSERT the
  answer (aiosqlite, WAL, synchronous=NORMAL, ON CONFLICT DO NOTHING), commit, answer the query.

The fake runs in its own process (spawn) with its own event loop, so the bot's process has a
core to itself on a 2-core machine. It is driven over a pipe: open a question, inject presses at
rate R, report. Both timestamps of a press are taken in the fake's process (time.monotonic()).
Presses are scheduled by absolute time (press i is due at t0 + i/R), never by accumulated
sleeps. Every press is a distinct (member, question) pair, so each must be recorded exactly once;
that is checked in the SQLite file after each configuration has drained.

The sustained rate of a configuration is the highest offered rate up to which every step
achieved ≥ 95 % of the offered rate with p99 ≤ 200 ms. A sweep stops at its first failing step
(``--keep-going`` runs every rate).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import math
import multiprocessing
import multiprocessing.connection
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from html import escape
from pathlib import Path
from random import Random
from typing import Any, Protocol

import aiosqlite
from pydantic import SecretStr
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import Application, CallbackQueryHandler, ContextTypes

from bot import app as quizbot_app
from bot.config import Settings
from content.loader import DEFAULT_CONTENT_DIR, load_decks
from tests.fakes import FakeBotApi, FakeChat, FakeUser, JsonDict

CHAT_ID = -1001234567890  # a supergroup id (the fake infers the kind from ids below -10**12)
HOST_ID = 1_000  # the member who sends /quiz
FIRST_MEMBER_ID = 10_000_000
P99_TARGET = 0.200
ACHIEVED_SHARE = 0.95
QUIZBOT_RATES = (100, 150, 200, 300, 400, 500, 600)
PLAIN_RATES = {0: (50, 100, 150, 200, 250, 300, 400), 50: (5, 10, 15, 20, 30, 50)}
QUICK_QUIZBOT_RATES = (200, 400, 600)
QUICK_PLAIN_RATES = {0: (100, 200, 300), 50: (10, 15, 20)}
DEFAULT_DURATION = 6.0
QUICK_DURATION = 3.0
WARMUP_SECONDS = 1.0  # a step at the sweep's first rate, not reported
STALL_SECONDS = 5.0  # a step stops draining when no answer has arrived for this long
DRAIN_CAP_SECONDS = 30.0  # ... or this long after its last press
SETTLE_SECONDS = 0.5  # quiet time between steps

Press = tuple[int, int, str]  # (member id, message id, callback data)


# -- the fake's process -------------------------------------------------------------------------


class CrowdFakeBotApi(FakeBotApi):
    """The fake Bot API plus what the benchmark measures: when each press was queued and when
    its answerCallbackQuery arrived (before the fake's added latency), both in this process."""

    def __init__(self, *, latency: float) -> None:
        super().__init__(latency=latency)
        self.queued_at: dict[str, float] = {}
        self.answer_arrived: dict[str, float] = {}
        self.method_counts: Counter[str] = Counter()
        self._outstanding: set[str] = set()
        self._last_arrival = time.monotonic()
        self._member_cache: dict[int, FakeUser] = {}

    async def _run(self, method: str, params: JsonDict) -> Any:
        now = time.monotonic()
        self.method_counts[method] += 1
        if method == "answerCallbackQuery":
            query_id = str(params.get("callback_query_id") or "")
            if query_id not in self.answer_arrived:
                self.answer_arrived[query_id] = now
                self._outstanding.discard(query_id)
                self._last_arrival = now
        return await super()._run(method, params)

    def member(self, user_id: int) -> FakeUser:
        user = self._member_cache.get(user_id)
        if user is None:
            user = FakeUser(user_id, "Member", str(user_id), f"member{user_id}")
            self._member_cache[user_id] = user
        return user

    async def open_question(self, text: str, timeout: float) -> tuple[int, list[str]] | None:  # noqa: ASYNC109
        """A member sends ``text`` (/quiz) in the group; the bot's next message with buttons."""
        chat = FakeChat.supergroup(CHAT_ID, "Crowd")
        since = len(self.calls)

        def sent_question(call: Any) -> bool:
            return bool(
                call.ok
                and call.params.get("chat_id") == CHAT_ID
                and (call.result or {}).get("reply_markup")
            )

        self.send_message(chat, self.member(HOST_ID), text)
        try:
            call = await self.wait_for_call(
                "sendMessage", sent_question, since=since, timeout=timeout
            )
        except TimeoutError:
            return None
        message = self.message(CHAT_ID, call.result["message_id"])
        return message.message_id, message.callback_data

    async def load(self, presses: Sequence[Press], rate: float) -> JsonDict:
        """Press at ``rate``/s (press i due at t0 + i/rate), then wait for the answers."""
        chat = FakeChat.supergroup(CHAT_ID, "Crowd")
        counts_before = Counter(self.method_counts)
        cpu0 = time.process_time()
        query_ids: list[str] = []
        t0 = time.monotonic()
        sent = 0
        while sent < len(presses):
            due = min(len(presses), int((time.monotonic() - t0) * rate) + 1)
            while sent < due:
                user_id, message_id, data = presses[sent]
                query_id = self.press_button(chat, self.member(user_id), message_id, data)
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
        answers = [self.callback_answers.get(q) for q in query_ids]
        kinds = Counter(
            "missing" if a is None else _answer_kind(a.text, a.show_alert) for a in answers
        )
        return {
            "queued": [self.queued_at[q] for q in query_ids],
            "arrived": [self.answer_arrived.get(q) for q in query_ids],
            "kinds": dict(kinds),
            "calls": dict(self.method_counts - counts_before),
            "cpu": cpu,
            "wall": wall,
        }

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


# -- the two configurations ---------------------------------------------------------------------


@dataclass(frozen=True)
class OpenQuestion:
    message_id: int
    buttons: list[str]


class Target(Protocol):
    name: str

    async def open_question(self) -> OpenQuestion: ...

    def recorded_pairs(self) -> list[tuple[int, int]]:
        """(question message id, user id) of every stored answer in the group."""
        ...


class QuizbotTarget:
    """The real bot: questions come from `/quiz` in the group."""

    name = "quizbot"

    def __init__(self, fake: FakeProcess, database: Path) -> None:
        self.fake = fake
        self.database = database

    async def open_question(self) -> OpenQuestion:
        opened = await self.fake.call("open", "/quiz", 10.0)
        if opened is None:
            raise RuntimeError("the bot did not answer /quiz in the group with a question")
        message_id, buttons = opened
        return OpenQuestion(message_id, buttons)

    def recorded_pairs(self) -> list[tuple[int, int]]:
        with contextlib.closing(sqlite3.connect(self.database)) as conn:
            rows = conn.execute(
                "SELECT asks.message_id, answers.user_id FROM answers "
                "JOIN asks ON asks.id = answers.ask_id WHERE answers.chat_id = ?",
                (CHAT_ID,),
            ).fetchall()
        return [(int(message_id), int(user_id)) for message_id, user_id in rows]


PLAIN_SCHEMA = """
CREATE TABLE IF NOT EXISTS answers (
    id INTEGER PRIMARY KEY,
    question_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    position INTEGER NOT NULL,
    correct INTEGER NOT NULL,
    answered_at INTEGER NOT NULL,
    UNIQUE (question_id, user_id)
)
"""


class PlainBot:
    """python-telegram-bot with its defaults and one handler: record the answer, answer."""

    name = "plain"

    def __init__(self, fake: FakeProcess, database: Path) -> None:
        self.fake = fake
        self.database = database
        self.app = Application.builder().token(fake.token).base_url(f"{fake.url}/bot").build()
        self.app.add_handler(CallbackQueryHandler(self.on_press))
        self.db: aiosqlite.Connection | None = None
        self._texts = _question_texts()
        self._asked = 0
        self._message_of: dict[int, int] = {}  # message id -> question number

    async def on_press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None or query.data is None or self.db is None:
            return
        _, question_id, position = query.data.split(":")
        correct = position == "0"
        await self.db.execute(
            "INSERT INTO answers (question_id, user_id, position, correct, answered_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (question_id, user_id) DO NOTHING",
            (int(question_id), query.from_user.id, int(position), int(correct), _now_ms()),
        )
        await self.db.commit()
        await query.answer("✅ Correct" if correct else "❌ Not quite — it was A", show_alert=True)

    async def open_question(self) -> OpenQuestion:
        self._asked += 1
        buttons = [f"p:{self._asked}:{p}" for p in range(4)]
        keyboard = InlineKeyboardMarkup(
            [
                [
                    InlineKeyboardButton("ABCD"[p], callback_data=data)
                    for p, data in enumerate(buttons)
                ]
            ]
        )
        text = self._texts[self._asked % len(self._texts)]
        message = await self.app.bot.send_message(CHAT_ID, text, reply_markup=keyboard)
        self._message_of[message.message_id] = self._asked
        return OpenQuestion(message.message_id, buttons)

    def recorded_pairs(self) -> list[tuple[int, int]]:
        question_to_message = {q: m for m, q in self._message_of.items()}
        with contextlib.closing(sqlite3.connect(self.database)) as conn:
            rows = conn.execute("SELECT question_id, user_id FROM answers").fetchall()
        return [(question_to_message.get(int(q), -1), int(u)) for q, u in rows]

    @asynccontextmanager
    async def running(self) -> AsyncIterator[PlainBot]:
        async with aiosqlite.connect(self.database) as db:
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA synchronous = NORMAL")
            await db.execute(PLAIN_SCHEMA)
            await db.commit()
            self.db = db
            async with self.app:
                assert self.app.updater is not None
                await self.app.updater.start_polling(allowed_updates=Update.ALL_TYPES)
                await self.app.start()
                try:
                    yield self
                finally:
                    await self.app.updater.stop()
                    await self.app.stop()
            self.db = None


def _now_ms() -> int:
    return int(datetime.now(UTC).timestamp() * 1000)


def _question_texts() -> list[str]:
    """The deck's questions laid out like quizbot's (so updates carry similar payloads)."""
    texts = []
    for deck in load_decks(DEFAULT_CONTENT_DIR).values():
        for question in deck.questions:
            options = "\n".join(
                f"<b>{'ABCDEFGH'[i]})</b> {escape(option)}"
                for i, option in enumerate(question.options)
            )
            texts.append(
                f"❓ <b>{escape(deck.title)}</b> · <i>{escape(question.topic)}</i>\n\n"
                f"<b>{escape(question.text)}</b>\n\n{options}"
            )
    return texts


# -- measuring ----------------------------------------------------------------------------------


@dataclass
class Step:
    config: str
    latency_ms: int
    offered: float
    presses: int
    answered: int
    achieved: float
    p50: float
    p99: float
    worst: float
    bot_cpu: float  # share of one core over the step (process time / wall)
    fake_cpu: float
    kinds: dict[str, int]
    calls: dict[str, int]
    errors: int  # warnings and errors the bot's process logged during the step

    @property
    def passed(self) -> bool:
        return (
            self.answered == self.presses
            and self.achieved >= ACHIEVED_SHARE * self.offered
            and self.p99 <= P99_TARGET
        )


@dataclass
class Run:
    """One configuration at one latency: its steps and whether every press was stored once."""

    config: str
    latency_ms: int
    steps: list[Step] = field(default_factory=list)
    pressed: int = 0
    rows: int = 0
    recorded_once: bool = False
    unanswered_at_end: int = 0

    @property
    def sustained(self) -> float:
        best = 0.0
        for step in sorted(self.steps, key=lambda s: s.offered):
            if not step.passed:
                break
            best = step.offered
        return best

    @property
    def swept_past_knee(self) -> bool:
        return any(not step.passed for step in self.steps)


def percentile(values: Sequence[float], share: float) -> float:
    """Nearest-rank percentile of sorted ``values`` (inf for an empty list)."""
    if not values:
        return math.inf
    return values[max(0, math.ceil(share * len(values)) - 1)]


class ErrorCounter(logging.Handler):
    """Counts what the bot's process logs at WARNING and above; keeps the first few lines."""

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


@dataclass
class Sweep:
    fake: FakeProcess
    target: Target
    members: int
    latency_ms: int
    errors: ErrorCounter
    rng: Random = field(default_factory=lambda: Random(42))
    pressed: list[tuple[int, int]] = field(default_factory=list)  # (message id, user id)
    _next_member: int = 0

    async def plan(self, count: int) -> list[Press]:
        """``count`` presses, each a distinct (member, question) pair, on fresh questions."""
        questions = [
            await self.target.open_question() for _ in range(math.ceil(count / self.members))
        ]
        presses: list[Press] = []
        for k in range(count):
            question = questions[k // self.members]
            member = FIRST_MEMBER_ID + (self._next_member + k) % self.members
            presses.append((member, question.message_id, self.rng.choice(question.buttons)))
        self._next_member = (self._next_member + count) % self.members
        self.pressed += [(message_id, member) for member, message_id, _ in presses]
        return presses

    async def step(self, rate: float, count: int) -> Step:
        presses = await self.plan(count)
        errors_before = self.errors.count
        cpu0 = time.process_time()
        raw = await self.fake.call("load", presses, rate)
        bot_cpu = time.process_time() - cpu0
        queued: list[float] = raw["queued"]
        arrived: list[float | None] = raw["arrived"]
        delays = sorted(
            math.inf if a is None else a - q for q, a in zip(queued, arrived, strict=True)
        )
        done = [a for a in arrived if a is not None]
        span = (max(done) - queued[0]) if done else math.inf
        wall = max(raw["wall"], 1e-9)
        return Step(
            config=self.target.name,
            latency_ms=self.latency_ms,
            offered=rate,
            presses=len(presses),
            answered=len(done),
            achieved=len(done) / span if span > 0 else 0.0,
            p50=percentile(delays, 0.50),
            p99=percentile(delays, 0.99),
            worst=delays[-1],
            bot_cpu=bot_cpu / wall,
            fake_cpu=raw["cpu"] / wall,
            kinds=raw["kinds"],
            calls=raw["calls"],
            errors=self.errors.count - errors_before,
        )

    async def settle(self) -> None:
        await self.fake.call("idle", SETTLE_SECONDS, 30.0)


async def sweep(
    target: Target,
    fake: FakeProcess,
    rates: Sequence[float],
    args: argparse.Namespace,
    latency_ms: int,
    errors: ErrorCounter,
    run: Run,
) -> Sweep:
    sweeper = Sweep(fake, target, args.members, latency_ms, errors)
    # Not reported: opens connections and warms caches, at the first rate (at least 10 presses).
    await sweeper.step(rates[0], max(10, round(rates[0] * WARMUP_SECONDS)))
    await sweeper.settle()
    for rate in rates:
        result = await sweeper.step(rate, max(1, round(rate * args.duration)))
        run.steps.append(result)
        print(format_step(result), flush=True)
        if args.verbose:
            print(f"      answers: {result.kinds}  calls: {result.calls}", flush=True)
        if not result.passed and not args.keep_going:
            break
        await sweeper.settle()
    run.unanswered_at_end = await fake.call("drain", 60.0)
    await fake.call("idle", SETTLE_SECONDS, 30.0)
    return sweeper


def check_recorded(run: Run, sweeper: Sweep) -> None:
    recorded = sweeper.target.recorded_pairs()
    run.pressed = len(sweeper.pressed)
    run.rows = len(recorded)
    run.recorded_once = len(recorded) == len(set(recorded)) and set(recorded) == set(
        sweeper.pressed
    )


async def run_quizbot(args: argparse.Namespace, latency_ms: int, errors: ErrorCounter) -> Run:
    run = Run("quizbot", latency_ms)
    with tempfile.TemporaryDirectory(prefix="quizbot-bench-") as tmp:
        async with fake_process(latency_ms / 1000) as fake:
            settings = Settings(
                telegram_bot_token=SecretStr(fake.token),
                database=Path(tmp) / "quizbot.sqlite3",
                api_base_url=fake.url,  # type: ignore[arg-type]
                quiz_open_seconds=3600,
                _env_file=None,
            )
            target = QuizbotTarget(fake, settings.database)
            async with quizbot_app.running_bot(settings):
                sweeper = await sweep(target, fake, args.rates, args, latency_ms, errors, run)
            check_recorded(run, sweeper)
    return run


async def run_plain(args: argparse.Namespace, latency_ms: int, errors: ErrorCounter) -> Run:
    run = Run("plain", latency_ms)
    defaults = QUICK_PLAIN_RATES if args.quick else PLAIN_RATES
    rates = args.plain_rates or defaults.get(latency_ms) or defaults[0]
    with tempfile.TemporaryDirectory(prefix="quizbot-bench-") as tmp:
        async with fake_process(latency_ms / 1000) as fake:
            plain = PlainBot(fake, Path(tmp) / "plain.sqlite3")
            async with plain.running():
                sweeper = await sweep(plain, fake, rates, args, latency_ms, errors, run)
            check_recorded(run, sweeper)
    return run


# -- output -------------------------------------------------------------------------------------

HEADER = (
    f"{'config':<8} {'latency':>7} {'offered/s':>9} {'presses':>7} {'answered':>8} "
    f"{'achieved/s':>10} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'bot CPU':>7} "
    f"{'fake CPU':>8} {'errors':>6}  ok"
)


def _ms(seconds: float) -> str:
    return "never" if math.isinf(seconds) else f"{seconds * 1000:.1f}"


def format_step(step: Step) -> str:
    return (
        f"{step.config:<8} {step.latency_ms:>4} ms {step.offered:>9.0f} {step.presses:>7} "
        f"{step.answered:>8} {step.achieved:>10.1f} {_ms(step.p50):>8} {_ms(step.p99):>8} "
        f"{_ms(step.worst):>8} {step.bot_cpu:>6.0%} {step.fake_cpu:>8.0%} {step.errors:>6}  "
        f"{'yes' if step.passed else 'NO'}"
    )


def _rate(run: Run) -> str:
    value = f"{run.sustained:.0f}/s" if run.sustained else "none of the rates"
    return value if run.swept_past_knee else f"≥ {value} (no step failed)"


def summary(runs: list[Run]) -> list[str]:
    lines = [
        "",
        f"sustained rate = highest offered rate up to which every step achieved "
        f"≥ {ACHIEVED_SHARE:.0%} of it with p99 ≤ {P99_TARGET * 1000:.0f} ms",
    ]
    latencies = sorted({r.latency_ms for r in runs})
    for latency in latencies:
        by_config = {r.config: r for r in runs if r.latency_ms == latency}
        parts = [f"{name} {_rate(run)}" for name, run in by_config.items()]
        line = f"  {latency:>3} ms: " + ", ".join(parts)
        quizbot, plain = by_config.get("quizbot"), by_config.get("plain")
        if quizbot and plain:
            if plain.sustained:
                line += f"; ratio quizbot/plain = {quizbot.sustained / plain.sustained:.1f}×"
            else:
                line += "; ratio quizbot/plain = ∞ (plain sustained none of its rates)"
        lines.append(line)
    lines.append("recorded once (one row per press, no duplicates, none missing):")
    for run in runs:
        verdict = "yes" if run.recorded_once else "NO"
        lines.append(
            f"  {run.config:<8} {run.latency_ms:>3} ms: {verdict} "
            f"({run.pressed} presses incl. warm-up, {run.rows} rows, "
            f"{run.unanswered_at_end} unanswered after the final drain)"
        )
    at50 = {r.config: r for r in runs if r.latency_ms == 50}
    if "quizbot" in at50:
        quizbot = at50["quizbot"]
        at400 = next((s for s in quizbot.steps if s.offered == 400), None)
        lines.append("targets at 50 ms:")
        lines.append(f"  sustained ≥ 400 answers/s: {'yes' if quizbot.sustained >= 400 else 'NO'}")
        if at400 is not None:
            lines.append(
                f"  at 400/s: achieved {at400.achieved:.0f}/s, p99 {_ms(at400.p99)} ms: "
                f"{'yes' if at400.passed else 'NO'}"
            )
        lines.append(f"  every answer recorded once: {'yes' if quizbot.recorded_once else 'NO'}")
        plain = at50.get("plain")
        if plain is not None:
            ok = plain.sustained == 0 or quizbot.sustained >= 3 * plain.sustained
            lines.append(f"  ≥ 3× the plain configuration: {'yes' if ok else 'NO'}")
    return lines


# -- entry point --------------------------------------------------------------------------------


def _rates(text: str) -> tuple[float, ...]:
    try:
        rates = tuple(float(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a comma-separated list of rates: {text!r}") from None
    if not rates or any(rate <= 0 for rate in rates):
        raise argparse.ArgumentTypeError("rates must be positive")
    return rates


def _latencies(text: str) -> tuple[int, ...]:
    try:
        values = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a comma-separated list of ms: {text!r}") from None
    if not values or any(value < 0 for value in values):
        raise argparse.ArgumentTypeError("latencies must be ≥ 0 ms")
    return values


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.answers", description=__doc__.split("\n\n")[0] if __doc__ else ""
    )
    parser.add_argument("--quick", action="store_true", help="fewer, shorter steps")
    parser.add_argument("--rates", type=_rates, help="quizbot offered rates, e.g. 100,200,400")
    parser.add_argument("--plain-rates", type=_rates, help="plain configuration offered rates")
    parser.add_argument("--duration", type=float, help="seconds of presses per step")
    parser.add_argument(
        "--latency", type=_latencies, default=(0, 50), help="fake latency per call, ms (0,50)"
    )
    parser.add_argument("--members", type=int, default=3000, help="members of the group")
    parser.add_argument("--only", choices=("quizbot", "plain"), help="run one configuration only")
    parser.add_argument("--keep-going", action="store_true", help="do not stop at a failed step")
    parser.add_argument("-v", "--verbose", action="store_true", help="answer kinds and calls")
    args = parser.parse_args(argv)
    if args.rates is None:
        args.rates = QUICK_QUIZBOT_RATES if args.quick else QUIZBOT_RATES
    if args.duration is None:
        args.duration = QUICK_DURATION if args.quick else DEFAULT_DURATION
    return args


async def run_all(args: argparse.Namespace) -> list[Run]:
    errors = ErrorCounter()
    root = logging.getLogger()
    root.addHandler(errors)
    root.setLevel(logging.WARNING)
    runs: list[Run] = []
    configs: list[tuple[str, Callable[..., Any]]] = [("quizbot", run_quizbot), ("plain", run_plain)]
    print(HEADER, flush=True)
    try:
        for latency in args.latency:
            for name, runner in configs:
                if args.only in (None, name):
                    runs.append(await runner(args, latency, errors))
    finally:
        root.removeHandler(errors)
    if errors.first:
        print(f"\nthe bot's process logged {errors.count} warnings/errors; the first ones:")
        for line in errors.first:
            print(f"  {line}")
    return runs


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.monotonic()
    runs = asyncio.run(run_all(args))
    for line in summary(runs):
        print(line)
    print(f"\n(took {time.monotonic() - started:.0f} s)")
    return 0 if all(run.recorded_once for run in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
