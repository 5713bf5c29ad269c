"""Personal memory fits: `python -m benchmarks.tutor.memory_fit`.

Simulated learners whose memory follows known FSRS parameters
(`bot.core.memory.fit.simulate`: scheduled by the bot with the defaults, back a little late,
each press right with the recall probability of their true model), R reviews each (default
2,000), S seeds per profile (default 10). Each is fitted as the bot fits them
(`bot.core.memory.fit.fit_learner`: the earliest 80% train fsrs-rs, the latest 20% are held out)
and the figures are the held-out log loss of the defaults and of the fit (median and range over
the seeds), how often the fit was kept (beat the defaults), and the fit time per learner
(median, max). Then the fits as the bot's worker runs them: a batch of 20 learners in one
spawned child process at nice 19, the process start included, per learner.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from datetime import UTC, datetime
from functools import partial
from importlib.metadata import version

from benchmarks.harness import median, table
from bot.core.memory.fit import FitOutcome, fit_learner
from bot.core.memory.fit.service import BATCH, fit_each
from bot.core.memory.fit.simulate import DEFAULTS, scaled, simulated_presses
from bot.core.model import Learned
from bot.workers.background import in_low_priority_process

START = datetime(2026, 1, 5, tzinfo=UTC)
# Learners whose memory differs from the defaults' average learner, and one who is that learner.
PROFILES: tuple[tuple[str, tuple[float, ...]], ...] = (
    ("forgets 4x faster, steeper curve", scaled(0.25, decay=0.5)),
    ("first memories 10x shorter", scaled(0.1)),
    ("first memories 4x shorter", scaled(0.25)),
    ("first memories 4x longer", scaled(4.0)),
    ("the defaults themselves", DEFAULTS),
)


def _fit(presses: list[Learned]) -> tuple[FitOutcome, float]:
    start = time.perf_counter()
    outcome = fit_learner(presses)
    return outcome, time.perf_counter() - start


def _range(values: list[float]) -> str:
    return f"{median(values):.4f} ({min(values):.4f}–{max(values):.4f})"


async def _in_child(histories: list[list[Learned]], runs: int) -> list[float]:
    took: list[float] = []
    for _ in range(runs):
        start = time.perf_counter()
        await in_low_priority_process(partial(fit_each, fit_learner, histories))
        took.append(time.perf_counter() - start)
    return took


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.tutor.memory_fit")
    parser.add_argument("--seeds", type=int, default=10, help="learners per profile")
    parser.add_argument("--reviews", type=int, default=2000, help="reviews per learner")
    parser.add_argument("--child-runs", type=int, default=3, help="fits in a child process")
    args = parser.parse_args(argv)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"machine: {os.cpu_count()} cores, fsrs-rs-python {version('fsrs-rs-python')}; "
        f"load average {load}"
    )
    print(f"{args.seeds} learners per profile × {args.reviews} reviews, the latest 20% held out:")
    rows, times, kept_where_different = [], [], []
    for name, truth in PROFILES:
        defaults, fitted, gains, kept = [], [], [], 0
        for seed in range(args.seeds):
            outcome, seconds = _fit(simulated_presses(truth, args.reviews, seed, START))
            times.append(seconds)
            defaults.append(outcome.default_loss)
            fitted.append(outcome.fitted_loss)
            gains.append(outcome.default_loss - outcome.fitted_loss)
            kept += outcome.parameters is not None
        if truth != DEFAULTS:
            kept_where_different.append(kept / args.seeds)
        rows.append(
            [
                name,
                _range(defaults),
                _range(fitted),
                _range(gains),
                f"{kept}/{args.seeds}",
            ]
        )
    header = ("true memory", "defaults' loss", "fit's loss", "gain", "kept")
    print("\n".join(table(header, rows)))
    shares = ", ".join(f"{share:.0%}" for share in kept_where_different)
    print(f"fit kept for learners unlike the defaults: {shares}")
    print(
        f"fit time per learner ({args.reviews} reviews, in this process): median "
        f"{median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms over {len(times)} fits"
    )
    histories = [simulated_presses(PROFILES[0][1], args.reviews, s, START) for s in range(BATCH)]
    took = asyncio.run(_in_child(histories, args.child_runs))
    print(
        f"as the worker runs it ({BATCH} learners in a spawned child at nice 19, start "
        f"included): median {median(took):.2f} s a batch, {median(took) / BATCH * 1000:.0f} ms "
        f"a learner; max {max(took):.2f} s over {args.child_runs} batches"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
