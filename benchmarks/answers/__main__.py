"""Answers under a crowd: `python -m benchmarks.answers`.

Runs the bot against the fake Bot API over loopback while N scripted members press the buttons
of open questions at a fixed offered rate, with the fake adding 0 ms and 50 ms to every Bot API
call. Per step it prints the achieved answers/s and the p50/p99 time from a press reaching the
fake server's update queue to its `answerCallbackQuery` arriving there.

Two configurations run in the same process, one after the other, each against a fresh fake
(`benchmarks.answers.targets`):

* quizbot: the real bot (`bot.app.running_bot`): its handlers, storage and PTB settings, with
  Telegram's limits as the bot knows them (rate_limit_scale 1); each question is opened by a
  member sending `/quiz` in a supergroup of its own;
* plain: python-telegram-bot with its defaults (updates handled one at a time, the default
  HTTP pool) and one CallbackQueryHandler doing the same answer-and-record work.

The fake runs in its own process (`benchmarks.answers.fake_api`), so the bot's process has a core to
itself on a 2-core machine; both timestamps of a press are taken there. Every press is a
distinct (member, question) pair, so each must be stored exactly once; that is checked through
each configuration's storage after it has drained (`benchmarks.answers.crowd`).

The sustained rate of a configuration is the highest offered rate up to which every step
achieved ≥ 95 % of the offered rate with p99 ≤ 200 ms. A sweep stops at its first failing step
(``--keep-going`` runs every rate).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Sequence

from benchmarks import harness
from benchmarks.answers import crowd
from benchmarks.answers.report import HEADER, format_step, summary

QUIZBOT_RATES = (100, 150, 200, 300, 400, 500, 600)
PLAIN_RATES = {0: (50, 100, 150, 200, 250, 300, 400), 50: (5, 10, 15, 20, 30, 50)}
QUICK_QUIZBOT_RATES = (200, 400, 600)
QUICK_PLAIN_RATES = {0: (100, 200, 300), 50: (10, 15, 20)}
DEFAULT_DURATION = 6.0
QUICK_DURATION = 3.0


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
    parser.add_argument("--members", type=int, default=3000, help="members who press (3000)")
    parser.add_argument("--only", choices=("quizbot", "plain"), help="run one configuration only")
    parser.add_argument("--keep-going", action="store_true", help="do not stop at a failed step")
    parser.add_argument("-v", "--verbose", action="store_true", help="answer kinds and calls")
    args = parser.parse_args(argv)
    if args.rates is None:
        args.rates = QUICK_QUIZBOT_RATES if args.quick else QUIZBOT_RATES
    if args.duration is None:
        args.duration = QUICK_DURATION if args.quick else DEFAULT_DURATION
    return args


def plain_rates(args: argparse.Namespace, latency_ms: int) -> Sequence[float]:
    defaults = QUICK_PLAIN_RATES if args.quick else PLAIN_RATES
    return args.plain_rates or defaults.get(latency_ms) or defaults[0]


async def run_all(args: argparse.Namespace) -> list[crowd.Run]:
    errors = harness.LogCounter()
    runs: list[crowd.Run] = []

    def report(step: crowd.Step) -> None:
        print(format_step(step), flush=True)
        if args.verbose:
            print(f"      answers: {step.kinds}  calls: {step.calls}", flush=True)

    print(HEADER, flush=True)
    with harness.counting_logs(errors):
        for latency in args.latency:
            if args.only in (None, "quizbot"):
                runs.append(await crowd.run_quizbot(args, args.rates, latency, errors, report))
            if args.only in (None, "plain"):
                rates = plain_rates(args, latency)
                runs.append(await crowd.run_plain(args, rates, latency, errors, report))
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
