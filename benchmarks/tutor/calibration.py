"""Item calibration: `python -m benchmarks.tutor.calibration`.

1. Recovery: simulated first answers from known 3PL parameters (abilities N(0, 1), difficulties
   N(0, 1), discriminations lognormal(0, 0.3), guessing 0.2) for 200 learners × 80 questions,
   fitted by `bot.core.calibration.fit`; the correlation of true and fitted difficulties and
   discriminations over S seeds (default 10): mean ± sd, min. Target: difficulties ≥ 0.9. The
   same for 2PL answers (no guessing), where no floor should be kept.
2. Fit time of a million answers: 10,000 learners × 250 questions, each answered with
   probability 0.4 (≈ 1,000,000 first answers), R runs (default 5) of the estimator alone:
   median and max seconds. Target: ≤ 60 s.
3. The background job end to end on SQLite: the same answers written to a fresh database's
   learning log (raw SQL, one transaction), then `Calibration.calibrate` (read in batches of
   learners, fit, store) timed over 3 runs, while a coroutine measures how late the event loop
   wakes it every 10 ms (the answer path's view of the fit): median and max lag. The fit runs
   as the bot runs it, in a child process at the lowest priority
   (`bot.workers.background.in_low_priority_process`), and, for comparison, in a thread of
   this process (`asyncio.to_thread`, the service's default).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from benchmarks.harness import median, percentile, table
from bot.core.calibration import Calibration, Fit, Responses, fit
from bot.core.calibration.service import RunBlocking
from bot.workers.background import in_low_priority_process
from storage.sql.rows import to_ms
from storage.sqlite import SqliteStore

NOW = datetime(2026, 12, 6, 3, 0, tzinfo=UTC)
FOUR_OPTIONS = 0.25


@dataclass(frozen=True)
class Simulated:
    responses: Responses
    difficulty: np.ndarray
    discrimination: np.ndarray


def simulate(learners: int, items: int, seed: int, guessing: float, answered: float) -> Simulated:
    rng = np.random.default_rng(seed)
    theta = rng.normal(size=learners)
    a = np.exp(rng.normal(0.0, 0.3, items))
    b = rng.normal(0.0, 1.0, items)
    who, what = (g.ravel() for g in np.meshgrid(np.arange(learners), np.arange(items)))
    if answered < 1.0:
        keep = rng.random(who.size) < answered
        who, what = who[keep], what[keep]
    p = guessing + (1 - guessing) / (1 + np.exp(-a[what] * (theta[who] - b[what])))
    right = rng.random(who.size) < p
    responses = Responses(who.astype(np.int64), what.astype(np.int64), right, learners, items)
    return Simulated(responses, b, a)


def recovery(seeds: int, guessing: float) -> list[str]:
    rb, ra, floors = [], [], []
    for seed in range(1, seeds + 1):
        sim = simulate(200, 80, seed, guessing, 1.0)
        found = fit(sim.responses, np.full(80, FOUR_OPTIONS))
        rb.append(float(np.corrcoef(sim.difficulty, found.difficulty)[0, 1]))
        ra.append(float(np.corrcoef(sim.discrimination, found.discrimination)[0, 1]))
        floors.append(float((found.guessing > 0).mean()))

    def spread(values: list[float]) -> str:
        return f"{statistics.mean(values):.3f} ± {statistics.stdev(values):.3f}"

    return [
        f"true guessing {guessing:g}",
        spread(rb),
        f"{min(rb):.3f}",
        spread(ra),
        f"{min(ra):.3f}",
        f"{statistics.mean(floors):.0%}",
    ]


def fit_times(runs: int) -> tuple[int, list[float]]:
    sim = simulate(10_000, 250, 42, 0.2, 0.4)
    chances = np.full(250, FOUR_OPTIONS)
    seconds = []
    for _ in range(runs):
        start = time.perf_counter()
        fit(sim.responses, chances)
        seconds.append(time.perf_counter() - start)
    return len(sim.responses.items), seconds


def seed_database(path: Path, sim: Simulated) -> None:
    r = sim.responses
    at = to_ms(NOW)
    rows = (
        (int(u) + 1, "deck", at, f"q{int(i):03d}", int(c), None, "quiz")
        for u, i, c in zip(r.learners, r.items, r.correct, strict=True)
    )
    with sqlite3.connect(path) as db:
        db.executemany(
            "INSERT INTO learning_log (user_id, deck_id, at, question_id, correct, duration_ms, "
            "source) VALUES (?, ?, ?, ?, ?, ?, ?)",
            rows,
        )


async def migrated(path: Path) -> None:
    """A fresh database with every migration applied."""
    store = await SqliteStore.open(path)
    await store.close()


async def _in_thread(work: Callable[[], Fit]) -> Fit:
    return await asyncio.to_thread(work)


class _Now:
    def now(self) -> datetime:
        return datetime.now(UTC)


async def background(
    path: Path, runs: int, run_blocking: RunBlocking[Fit]
) -> tuple[list[float], list[float], int]:
    store = await SqliteStore.open(path)
    lags: list[float] = []
    seconds = []
    stop = asyncio.Event()

    async def probe() -> None:
        while not stop.is_set():
            start = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - start - 0.01)

    try:
        calibration = Calibration(store=store, decks={}, clock=_Now(), run_blocking=run_blocking)
        probing = asyncio.create_task(probe())
        fitted = 0
        for _ in range(runs):
            start = time.perf_counter()
            [deck] = await calibration.calibrate("deck")
            seconds.append(time.perf_counter() - start)
            fitted = deck.answers
        stop.set()
        await probing
    finally:
        await store.close()
    return seconds, lags, fitted


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.tutor.calibration")
    parser.add_argument("--seeds", type=int, default=10, help="recovery runs (default 10)")
    parser.add_argument("--runs", type=int, default=5, help="timed fits of 1M answers")
    parser.add_argument("--database-runs", type=int, default=3, help="end-to-end runs")
    args = parser.parse_args(argv)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"machine: {os.cpu_count()} cores, numpy {np.__version__}; load average {load}")
    print(f"1. recovery, 200 learners × 80 questions, {args.seeds} seeds:")
    header = ("answers", "r(b) mean ± sd", "min", "r(a) mean ± sd", "min", "floors kept")
    rows = [recovery(args.seeds, 0.2), recovery(args.seeds, 0.0)]
    print("\n".join(table(header, rows)))
    answers, seconds = fit_times(args.runs)
    print(
        f"2. fit of {answers:,} first answers (10,000 × 250): median {median(seconds):.2f} s, "
        f"max {max(seconds):.2f} s over {args.runs} runs (target ≤ 60 s)"
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "calibration.sqlite3"
        asyncio.run(migrated(path))
        sim = simulate(10_000, 250, 42, 0.2, 0.4)
        seed_database(path, sim)
        print(f"3. calibrate on SQLite, {args.database_runs} runs each:")
        rows = []
        for name, runner in (
            ("child process, nice 19 (the bot)", in_low_priority_process),
            ("thread of the bot's process", _in_thread),
        ):
            took, lags, fitted = asyncio.run(background(path, args.database_runs, runner))
            rows.append(
                [
                    name,
                    f"{fitted:,}",
                    f"{median(took):.2f}",
                    f"{max(took):.2f}",
                    f"{median(lags) * 1000:.1f}",
                    f"{percentile(lags, 0.99) * 1000:.0f}",
                    f"{max(lags) * 1000:.0f}",
                ]
            )
    header = ("fit in", "answers", "median s", "max s", "lag p50 ms", "p99 ms", "max ms")
    print("\n".join(table(header, rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
