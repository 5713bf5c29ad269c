"""Answers on PostgreSQL, one replica against two: `python -m benchmarks.replicas.answers`.

The sweep of `benchmarks.answers` (`benchmarks.answers.crowd`: its steps, pass rule and exactly-once
check; quizbot only) with the bot as `python -m bot` processes in webhook mode on one
PostgreSQL database (`benchmarks.replicas`), first with one replica, then with two, each on a
fresh database and a fresh fake. The fake (`benchmarks.answers.fake_api`, its own process) delivers
the updates round-robin over the replicas' ports. Per step it also prints the machine's busy
cores, PostgreSQL's CPU and each replica's (cores), and the 1-minute load average: on a 2-core
machine the load generator, the fake, PostgreSQL and the bots all share the two cores.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from benchmarks import harness
from benchmarks.answers import crowd, fake_api
from benchmarks.answers.report import HEADER, format_step
from benchmarks.answers.targets import QuizbotTarget
from benchmarks.fanout.run import bot_log_summary
from benchmarks.harness.pg import create_database, pg_admin
from benchmarks.replicas.process import (
    CpuMeter,
    Replica,
    format_cpu,
    free_port,
    local_url,
    start_replica,
)
from storage.postgres.store import PostgresStore

RATES = (100, 200, 300, 400, 500, 600, 700, 800, 1000)
TARGET_RATIO = 1.5


def _webhook_fake_process(conn: Any, latency: float, replicas: list[str]) -> None:
    """The fake process of `benchmarks.answers.fake_api`, its webhook delivering round-robin
    over ``replicas``."""

    class HookedFake(fake_api.CrowdFakeBotApi):
        def __init__(self, *, latency: float) -> None:
            super().__init__(latency=latency)
            self.webhook.replicas = list(replicas)

    fake_api.CrowdFakeBotApi = HookedFake  # type: ignore[misc]  # in the child process only
    fake_api._fake_process(conn, latency)


class WebhookFakeProcess(fake_api.FakeProcess):
    def __init__(self, latency: float, replicas: list[str]) -> None:
        super().__init__(latency)
        ctx = multiprocessing.get_context("spawn")
        self._process = ctx.Process(
            target=_webhook_fake_process,
            args=(self._child, latency, replicas),
            name="fake-bot-api",
            daemon=True,
        )


@asynccontextmanager
async def webhook_fake(latency: float, replicas: list[str]) -> AsyncIterator[WebhookFakeProcess]:
    fake = WebhookFakeProcess(latency, replicas)
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


class MeteredSweep(crowd.Sweep):
    """A sweep whose steps also measure the machine's, PostgreSQL's and the replicas' CPU."""

    meter: CpuMeter | None = None
    cpu: list[dict[str, float]]

    async def step(self, rate: float, count: int) -> crowd.Step:
        assert self.meter is not None
        self.meter.start()
        result = await super().step(rate, count)
        usage = self.meter.stop()
        result.bot_cpu = sum(v for k, v in usage.items() if k.startswith("bot"))
        self.cpu.append(usage)
        return result


async def run_replicas(
    admin: str, count: int, args: argparse.Namespace, scratch: Path
) -> tuple[crowd.Run, list[dict[str, float]], list[str]]:
    run = crowd.Run(f"quizbot ×{count}", args.latency)
    url = await create_database(admin, f"quizbot_answers{count}")
    ports = [free_port() for _ in range(count)]
    replicas: list[Replica] = []
    async with webhook_fake(args.latency / 1000, [local_url(p) for p in ports]) as fake:
        try:
            for index, port in enumerate(ports):
                log = scratch / f"replica{count}-{index + 1}.log"
                extra = {"QUIZBOT_QUIZ_OPEN_SECONDS": "3600"}
                if args.max_connections:
                    extra["QUIZBOT_WEBHOOK_MAX_CONNECTIONS"] = str(args.max_connections)
                replicas.append(await start_replica(fake, url, log, port=port, extra=extra))
            store = await PostgresStore.open(url, pool_size=2)
            try:
                target = QuizbotTarget(fake, SimpleNamespace(store=store))
                target.name = run.config
                sweeper = MeteredSweep(
                    fake, target, args.members, args.latency, harness.LogCounter()
                )
                sweeper.meter = CpuMeter([r.process for r in replicas])
                sweeper.cpu = []

                def report(step: crowd.Step) -> None:
                    print(format_step(step), flush=True)
                    print(f"      {format_cpu(sweeper.cpu[-1])}", flush=True)

                await crowd.sweep(sweeper, args.rates, args, run, report)
            finally:
                await store.close()
        finally:
            for replica in replicas:
                await replica.process.terminate()
    problems: list[str] = []
    for replica in replicas:
        traceback, flagged, shown = bot_log_summary(replica.process.log_text())
        if traceback or flagged:
            problems += [f"replica :{replica.port}: {flagged} warnings/errors", *shown]
    return run, sweeper.cpu, problems


def _rates(text: str) -> tuple[float, ...]:
    return tuple(float(part) for part in text.split(",") if part.strip())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--latency", type=int, default=50, help="fake latency per call, ms (50)")
    parser.add_argument("--rates", type=_rates, default=RATES)
    parser.add_argument("--duration", type=float, default=6.0, help="seconds of presses per step")
    parser.add_argument("--members", type=int, default=3000)
    parser.add_argument("--keep-going", action="store_true", help="do not stop at a failed step")
    parser.add_argument("--replicas", default="1,2", help="replica counts to run, in order (1,2)")
    parser.add_argument(
        "--max-connections",
        type=int,
        help="QUIZBOT_WEBHOOK_MAX_CONNECTIONS (the bot's default: 40); Telegram, and the fake, "
        "keep at most this many deliveries in flight over all replicas together",
    )
    args = parser.parse_args(argv)
    started = time.monotonic()
    sustained: dict[int, float] = {}
    ok = True
    with pg_admin() as admin, tempfile.TemporaryDirectory(prefix="quizbot-bench-") as tmp:
        for count in (int(c) for c in args.replicas.split(",")):
            print(
                f"\n== {count} replica(s), PostgreSQL, {args.latency} ms ==\n{HEADER}", flush=True
            )
            run, _, problems = asyncio.run(run_replicas(admin, count, args, Path(tmp)))
            sustained[count] = run.sustained
            ok = ok and run.recorded_once
            print(
                f"sustained {run.sustained:g}/s; pressed {run.pressed}, stored {run.rows}, "
                f"recorded once: {'yes' if run.recorded_once else 'NO'}; "
                f"unanswered at the end {run.unanswered_at_end}"
            )
            for line in problems[:12]:
                print(f"  {line}")
    if 1 in sustained and 2 in sustained and sustained[1]:
        ratio = sustained[2] / sustained[1]
        verdict = "met" if ratio >= TARGET_RATIO else "NOT met"
        print(
            f"\ntwo / one = {sustained[2]:g} / {sustained[1]:g} = {ratio:.2f}× "
            f"(target ≥ {TARGET_RATIO}×: {verdict})"
        )
    print(f"(took {time.monotonic() - started:.0f} s)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
