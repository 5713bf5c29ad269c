"""Sweeps of `benchmarks.answers`: steps of presses at a fixed offered rate against one
configuration, and the check that every press was stored exactly once.

Per step, fresh questions are opened, each in a supergroup of its own (so no group's 20/min
window and no one-open-question-per-chat rule stands between the benchmark and the answer
path), and the members press their buttons at the offered rate. Every press is a distinct
(member, question) pair, so each must be stored exactly once.
"""

from __future__ import annotations

import argparse
import math
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from random import Random

from benchmarks import harness
from benchmarks.answers.fake_api import FakeProcess, Press, fake_process
from benchmarks.answers.targets import FIRST_CHAT_ID, OpenQuestion, PlainBot, QuizbotTarget, Target
from bot.app import running_bot

FIRST_MEMBER_ID = 10_000_000
P99_TARGET = 0.200
ACHIEVED_SHARE = 0.95
WARMUP_SECONDS = 1.0  # a step at the sweep's first rate, not reported
SETTLE_SECONDS = 0.5  # quiet time between steps
FINAL_DRAIN_SECONDS = 60.0


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


@dataclass
class Sweep:
    fake: FakeProcess
    target: Target
    members: int
    latency_ms: int
    errors: harness.LogCounter
    rng: Random = field(default_factory=lambda: Random(42))
    questions: list[OpenQuestion] = field(default_factory=list)
    pressed: dict[int, set[int]] = field(default_factory=dict)  # question index -> member ids
    _next_member: int = 0

    async def plan(self, count: int) -> list[Press]:
        """``count`` presses, each a distinct (member, question) pair, on fresh questions."""
        first = len(self.questions)
        for k in range(first, first + math.ceil(count / self.members)):
            self.questions.append(await self.target.open_question(FIRST_CHAT_ID - k))
            self.pressed[k] = set()
        presses: list[Press] = []
        for k in range(count):
            index = first + k // self.members
            question = self.questions[index]
            member = FIRST_MEMBER_ID + (self._next_member + k) % self.members
            data = self.rng.choice(question.buttons)
            presses.append((member, question.chat_id, question.message_id, data))
            self.pressed[index].add(member)
        self._next_member = (self._next_member + count) % self.members
        return presses

    async def step(self, rate: float, count: int) -> Step:
        presses = await self.plan(count)
        errors_before = self.errors.count
        cpu0 = time.process_time()
        raw = await self.fake.call("load", presses, rate)
        bot_cpu = time.process_time() - cpu0
        queued: list[float] = raw["queued"]
        arrived: list[float | None] = raw["arrived"]
        delays = [math.inf if a is None else a - q for q, a in zip(queued, arrived, strict=True)]
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
            p50=harness.percentile(delays, 0.50, math.inf),
            p99=harness.percentile(delays, 0.99, math.inf),
            worst=max(delays, default=math.inf),
            bot_cpu=bot_cpu / wall,
            fake_cpu=raw["cpu"] / wall,
            kinds=raw["kinds"],
            calls=raw["calls"],
            errors=self.errors.count - errors_before,
        )

    async def settle(self) -> None:
        await self.fake.call("idle", SETTLE_SECONDS, 30.0)

    async def check_recorded(self, run: Run) -> None:
        """One stored answer per press: none missing, none extra, none twice."""
        run.pressed = sum(len(users) for users in self.pressed.values())
        run.rows, found = 0, 0
        for index, users in self.pressed.items():
            rows, present = await self.target.recorded(self.questions[index], users)
            run.rows += rows
            found += present
        run.recorded_once = run.rows == run.pressed == found


Report = Callable[[Step], None]


async def sweep(
    sweeper: Sweep, rates: Sequence[float], args: argparse.Namespace, run: Run, report: Report
) -> None:
    # Not reported: opens connections and warms caches, at the first rate (at least 10 presses).
    await sweeper.step(rates[0], max(10, round(rates[0] * WARMUP_SECONDS)))
    await sweeper.settle()
    for rate in rates:
        result = await sweeper.step(rate, max(1, round(rate * args.duration)))
        run.steps.append(result)
        report(result)
        if not result.passed and not args.keep_going:
            break
        await sweeper.settle()
    run.unanswered_at_end = await sweeper.fake.call("drain", FINAL_DRAIN_SECONDS)
    await sweeper.fake.call("idle", SETTLE_SECONDS, 30.0)
    await sweeper.check_recorded(run)


async def run_quizbot(
    args: argparse.Namespace,
    rates: Sequence[float],
    latency_ms: int,
    errors: harness.LogCounter,
    report: Report,
) -> Run:
    run = Run("quizbot", latency_ms)
    with tempfile.TemporaryDirectory(prefix="quizbot-bench-") as tmp:
        async with fake_process(latency_ms / 1000) as fake:
            database = Path(tmp) / "quizbot.sqlite3"
            settings = harness.bot_settings(fake.url, fake.token, database, quiz_open_seconds=3600)
            async with running_bot(settings) as running:
                target = QuizbotTarget(fake, running)
                sweeper = Sweep(fake, target, args.members, latency_ms, errors)
                await sweep(sweeper, rates, args, run, report)
    return run


async def run_plain(
    args: argparse.Namespace,
    rates: Sequence[float],
    latency_ms: int,
    errors: harness.LogCounter,
    report: Report,
) -> Run:
    run = Run("plain", latency_ms)
    with tempfile.TemporaryDirectory(prefix="quizbot-bench-") as tmp:
        async with fake_process(latency_ms / 1000) as fake:
            plain = PlainBot(fake, Path(tmp) / "plain.sqlite3")
            async with plain.running():
                sweeper = Sweep(fake, plain, args.members, latency_ms, errors)
                await sweep(sweeper, rates, args, run, report)
    return run
