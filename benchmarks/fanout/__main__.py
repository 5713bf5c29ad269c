"""Daily fan-out: `python -m benchmarks.fanout`.

N group chats all have their daily question due at the same moment. The bot runs as a separate
process (`python -m bot`, exactly as operators run it) against the fake Bot API, which runs in
this process's event loop and enforces Telegram's flood limits (30 msg/s overall, 20/min per
group, 1/s per private chat; ``--scale k`` multiplies every limit by k, the bot being told the
same through QUIZBOT_RATE_LIMIT_SCALE), answering 429 with ``retry_after`` when they are broken.

Before the bot starts, the database is created with every migration and filled, through the
storage ports, with N supergroups with an enabled daily schedule each whose next slot is a few
seconds ahead (the chats' zone is the bot's default, UTC; the local time is that moment's
HH:MM). Then, from the fake's record of every request:

* achieved rate = question messages delivered / (last − first arrival), as a share of the
  overall limit (30 × scale per second);
* the largest number of rate-limited requests (send*/edit*/… that the fake accepted) in any
  sliding 1-second window, and in any 1/scale-second window (the window the fake enforces);
* 429s received, duplicates (chats with more than one question message), missing (chats with
  none once the bot is done or the time is up);
* the peak RSS of the bot's process (the kernel's VmHWM from /proc, sampled every 100 ms);
* the delivery ledger afterwards (read through the ports): every chat's row 'sent', with the
  message id the fake gave that chat's question.

``--kill`` instead SIGKILLs the bot at a random point (seeded) of a 500-chat fan-out, after
between 10% and 90% of the questions were delivered, restarts it on the same database and
counts lost pushes (chats that never got their question) and duplicated ones. It also shows the
bound a ledger written before each send and closed after it allows: a push can only be sent
twice if its question was delivered but not yet marked 'sent' when the bot died.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from benchmarks.fanout.kill import run_kill
from benchmarks.fanout.report import kill_report, report
from benchmarks.fanout.run import run_fanout, timeout_for
from benchmarks.harness import OVERALL_PER_SECOND

DEFAULT_CHATS = 2_000
KILL_CHATS = 500


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
    timeout = args.timeout if args.timeout is not None else timeout_for(args.chats, args.scale)
    result = await run_fanout(args.chats, args.scale, args.latency, timeout)
    for line in report(result):
        print(line)
    return 0 if result.passed else 1


def main(argv: list[str] | None = None) -> int:
    return asyncio.run(run(parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
