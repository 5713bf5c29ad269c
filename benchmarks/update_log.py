"""What acting on each update once costs the answer path: `python -m benchmarks.update_log`.

The group answer path of `benchmarks.harness.answer_path` (the core on a fresh SQLite file,
concurrent pressers on many open questions, no Telegram), A/B/A/B…:

* **plain**: `QuizService.answer` alone;
* **update log**: what `bot.runners.processor.OnceUpdateProcessor` wraps around every update:
  `UpdateLog.seen(update_id)` (one indexed read), the answer inside `acting_on(update_id)`,
  then `handled(mark)` (one INSERT into `handled_updates`: a group answer is an autocommit
  write, so no transaction of the handling records it on the way).

Prints answers/s of each, the ratio, and the cost per update in microseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

from benchmarks.harness import answer_path, median, table
from bot.core.memory.scheduling import Memory
from bot.core.services import Services

PLAIN, LOGGED = "plain", "update log"


async def logged_press(services: Services, press: answer_path.Press, update_id: int) -> object:
    """One press as the update processor handles it: seen? act on it once, then record it."""
    if await services.updates.seen(update_id):
        return None
    with services.updates.acting_on(update_id) as mark:
        result = await answer_path.plain_press(services, press, update_id)
    await services.updates.handled(mark)
    return result


async def alternate(args: argparse.Namespace) -> list[answer_path.RunResult]:
    results = []
    for rep in range(args.reps):
        for label, press in ((PLAIN, answer_path.plain_press), (LOGGED, logged_press)):
            result = await answer_path.run_once(
                label,
                Memory(),
                asks=args.asks,
                members=args.members,
                warmup_asks=args.warmup_asks,
                pressers=args.pressers,
                seed=args.seed,
                press_once=press,
            )
            print(
                f"  rep {rep + 1} {label:<10} {result.answers:,} answers in "
                f"{result.seconds:.2f} s = {result.rate:,.0f}/s",
                flush=True,
            )
            results.append(result)
    return results


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.update_log",
        description=__doc__.splitlines()[0] if __doc__ else "",
    )
    parser.add_argument("--asks", type=int, default=40, help="group questions per run")
    parser.add_argument("--members", type=int, default=500, help="members pressing on each")
    parser.add_argument("--warmup-asks", type=int, default=4, help="untimed questions first")
    parser.add_argument("--pressers", type=int, default=64, help="concurrent pressers")
    parser.add_argument("--reps", type=int, default=5, help="A/B pairs")
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    print(
        f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}; group answers: "
        f"{args.asks} questions × {args.members} members per run, {args.pressers} concurrent "
        f"pressers, {args.reps} A/B pairs",
        flush=True,
    )
    results = asyncio.run(alternate(args))
    rates = {label: [r.rate for r in results if r.label == label] for label in (PLAIN, LOGGED)}
    rows = [
        [label, f"{median(values):,.0f}", f"{min(values):,.0f}–{max(values):,.0f}"]
        for label, values in rates.items()
    ]
    print("\n".join(table(["answers/s", "median", "range"], rows)))
    plain, logged = median(rates[PLAIN]), median(rates[LOGGED])
    pairs = [b / a for a, b in zip(rates[PLAIN], rates[LOGGED], strict=True)]
    print(
        f"update log / plain: {logged / plain:.1%} (per A/B pair: "
        f"{', '.join(f'{p:.1%}' for p in pairs)}); the log's cost per answer at full load: "
        f"{(1 / logged - 1 / plain) * 1e6:,.0f} µs of the store's time"
    )
    return 0  # the figure is reported, not asserted


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
