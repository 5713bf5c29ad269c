"""Leader failover with two replicas on PostgreSQL: `python -m benchmarks.replicas.failover`.

Two `python -m bot` replicas in webhook mode on one PostgreSQL database (`benchmarks.replicas`),
against the fake Bot API of `benchmarks.fanout` (in this process, Telegram's limits × --scale,
webhook deliveries round-robin over both replicas). The leader is found through each replica's
/metrics (`quizbot_leader 1`) and SIGKILLed mid-way; the other replica must take over.

* ``--mode daily`` (default): N supergroups (`benchmarks.fanout.ledger.seed`) with a daily
  question due at one slot; the leader is killed once --kill-at of the questions have arrived.
  Takeover = SIGKILL → the next question's arrival at the fake (only the leader fans out).
  Lost = chats without a question at the end; duplicates = extra questions (target ≤ 16, the
  sender's in-flight bound); 429s; and the ledger (`read_ledger`: every row 'sent' once).
* ``--mode closing``: members send `/quiz` in N supergroups (one question each, open for an
  hour); then every open ask's `closes_at` is set to one moment a few seconds ahead (one SQL
  UPDATE: the only SQL here), and the leader is killed once --kill-at of the reveals (an
  `editMessageText` of a question message) have arrived. Each question must be closed in the
  database and revealed exactly once: reveal edits are counted per question message.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg

from benchmarks import harness
from benchmarks.fanout.bot import FanoutFake
from benchmarks.fanout.ledger import chat_ids, read_ledger, seed
from benchmarks.fanout.run import (
    LEAD_SECONDS,
    _fake_without_gc_pauses,
    bot_log_summary,
    duplicates_and_missing,
    wait_done,
)
from benchmarks.harness.pg import create_database, pg_admin
from benchmarks.replicas.process import (
    CpuMeter,
    Replica,
    format_cpu,
    free_port,
    local_url,
    start_replica,
)
from bot.playground.botapi import FakeChat
from storage.postgres.store import PostgresStore

TAKEOVER_TARGET = 5.0
INFLIGHT_BOUND = 16
HOST_ID = 1_000


async def leader_of(replicas: list[Replica], timeout: float = 15.0) -> Replica:  # noqa: ASYNC109
    """The replica whose /metrics says `quizbot_leader 1` (waits until exactly one does)."""
    deadline = time.monotonic() + timeout
    async with aiohttp.ClientSession() as session:
        while time.monotonic() < deadline:
            leading = []
            for replica in replicas:
                url = f"http://127.0.0.1:{replica.port}/metrics"
                with contextlib.suppress(aiohttp.ClientError, TimeoutError, OSError):
                    async with session.get(url) as resp:
                        text = await resp.text()
                    if any(
                        line.strip() == "quizbot_leader 1.0" or line.strip() == "quizbot_leader 1"
                        for line in text.splitlines()
                    ):
                        leading.append(replica)
            if len(leading) == 1:
                return leading[0]
            await asyncio.sleep(0.2)
    raise RuntimeError("no single leader among the replicas (see /metrics)")


async def wait_until(check: Callable[[], bool], timeout: float, what: str) -> None:  # noqa: ASYNC109
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


def question_times(fake: FanoutFake) -> list[float]:
    return sorted(
        call.time
        for call in fake.calls
        if call.method == "sendMessage" and call.ok and (call.result or {}).get("reply_markup")
    )


IN_FLIGHT_WINDOW = 0.2


def takeover_after(times: list[float], killed_at: float) -> tuple[int, float]:
    """(arrivals within IN_FLIGHT_WINDOW of the kill, seconds from the kill to the first arrival
    after that). The fake shares this process's loop, so requests the dead leader wrote before
    the SIGKILL may be read a few ms after it; the survivor's first push comes after a gap."""
    after = [t - killed_at for t in times if t > killed_at]
    early = [t for t in after if t <= IN_FLIGHT_WINDOW]
    later = [t for t in after if t > IN_FLIGHT_WINDOW]
    return len(early), (later[0] if later else float("nan"))


def reveal_calls(fake: FanoutFake) -> list[tuple[float, int, int]]:
    """(arrival, chat id, message id) of each accepted editMessageText of a question message."""
    questions = {(chat, m) for chat, ids in fake.questions.items() for m in ids}
    found = []
    for call in fake.calls:
        if call.method != "editMessageText" or not call.ok:
            continue
        key = (call.params.get("chat_id"), call.params.get("message_id"))
        if key in questions:
            found.append((call.time, int(key[0]), int(key[1])))
    return found


def _print_logs(replicas: list[Replica]) -> None:
    for index, replica in enumerate(replicas):
        traceback, flagged, shown = bot_log_summary(replica.process.log_text())
        print(
            f"replica {index + 1} (:{replica.port}): {flagged} warning/error lines"
            + (", a traceback" if traceback else "")
        )
        for line in shown[:8]:
            print(f"    {line[:200]}")


async def start_pair(
    fake: FanoutFake, url: str, folder: Path, scale: float, **extra: str
) -> list[Replica]:
    ports = [free_port(), free_port()]
    fake.webhook.replicas = [local_url(p) for p in ports]
    replicas = []
    for index, port in enumerate(ports):
        log = folder / f"replica{index + 1}.log"
        replicas.append(await start_replica(fake, url, log, scale, port=port, extra=extra))
    return replicas


async def run_daily(admin: str, args: argparse.Namespace) -> bool:
    url = await create_database(admin, "quizbot_failover")
    ids = chat_ids(args.chats)
    with tempfile.TemporaryDirectory(prefix="quizbot-failover-") as tmp:
        limits = harness.telegram_limits(args.scale)
        async with FanoutFake(limits=limits, latency=args.latency / 1000) as fake:
            # The ledger helpers are typed for SqliteStore; PostgresStore has the same ports.
            store: Any = await PostgresStore.open(url, pool_size=2)
            replicas = await start_pair(fake, url, Path(tmp), args.scale)
            try:
                leader = await leader_of(replicas)
                other = next(r for r in replicas if r is not leader)
                started = time.monotonic()
                slot, slot_mono = await seed(store, args.chats, LEAD_SECONDS)
                print(
                    f"seeded {args.chats} chats in {time.monotonic() - started:.1f} s; due at "
                    f"{slot:%H:%M:%S} UTC; leader is replica {replicas.index(leader) + 1} "
                    f"(pid {leader.process.pid})",
                    flush=True,
                )
                meter = CpuMeter([r.process for r in replicas])
                with _fake_without_gc_pauses():
                    meter.start()
                    kill_after = round(args.chats * args.kill_at)
                    await wait_until(
                        lambda: fake.delivered >= kill_after,
                        slot_mono - time.monotonic() + 120,
                        "the kill point",
                    )
                    before = fake.delivered
                    killed_at = time.monotonic()
                    await leader.process.kill()
                    print(
                        f"SIGKILLed the leader after {before} questions "
                        f"({time.monotonic() - killed_at:.3f} s to reap)",
                        flush=True,
                    )
                    deadline = time.monotonic() + args.chats / (30 * args.scale) * 2 + 90
                    done = await wait_done(fake, other.process, store, ids, deadline)
                    cpu = meter.stop()
                    await asyncio.sleep(2.0)  # time for a late duplicate
                    with contextlib.suppress(TimeoutError):
                        await fake.idle(settle=0.1, timeout=10)
                times = question_times(fake)
                in_flight, takeover = takeover_after(times, killed_at)
                duplicated, extra, missing = duplicates_and_missing(fake, ids)
                ledger = await read_ledger(store, ids, slot.date())
            finally:
                for replica in replicas:
                    await replica.process.terminate()
                await store.close()
            span = times[-1] - times[0] if len(times) > 1 else float("nan")
            print(
                f"done: {done}; questions {len(times)} for {args.chats} chats; "
                f"slot → last {times[-1] - slot_mono:.1f} s; rate {len(times) / span:.0f}/s "
                f"(limit {30 * args.scale:g}/s)"
            )
            print(
                f"TAKEOVER (kill → the survivor's first question) {takeover:.2f} s "
                f"(target ≤ {TAKEOVER_TARGET} s); {in_flight} questions arrived in the "
                f"{IN_FLIGHT_WINDOW * 1000:.0f} ms after the kill (the dead leader's, in flight)"
            )
            print(f"LOST (chats without a question) {missing} (target 0)")
            print(f"DUPLICATES {extra} extra in {duplicated} chats (target ≤ {INFLIGHT_BOUND})")
            print(
                f"429s {fake.rejected_429} (target 0); fake internal errors "
                f"{len(fake.internal_errors)}"
            )
            print(
                f"ledger: {dict(ledger.statuses)}; sent rows {len(ledger.sent)}; "
                f"unsent {dict(ledger.unsent)}"
            )
            print(f"slot → done: {format_cpu(cpu)}")
            _print_logs(replicas)
            return (
                takeover <= TAKEOVER_TARGET
                and missing == 0
                and extra <= INFLIGHT_BOUND
                and fake.rejected_429 == 0
            )


async def run_closing(admin: str, args: argparse.Namespace) -> bool:
    url = await create_database(admin, "quizbot_closing")
    ids = chat_ids(args.chats)
    with tempfile.TemporaryDirectory(prefix="quizbot-failover-") as tmp:
        limits = harness.telegram_limits(args.scale)
        async with FanoutFake(limits=limits, latency=args.latency / 1000) as fake:
            replicas = await start_pair(
                fake, url, Path(tmp), args.scale, QUIZBOT_QUIZ_OPEN_SECONDS="3600"
            )
            conn = await asyncpg.connect(url)
            try:
                leader = await leader_of(replicas)
                host = harness.member(HOST_ID, "Host")
                started = time.monotonic()
                for index, chat_id in enumerate(ids):
                    fake.send_message(FakeChat.supergroup(chat_id, f"Group {index}"), host, "/quiz")
                await wait_until(lambda: len(fake.questions) >= len(ids), 300, "the questions")
                print(
                    f"{len(ids)} questions open in {time.monotonic() - started:.1f} s; "
                    f"leader is replica {replicas.index(leader) + 1}",
                    flush=True,
                )
                await fake.idle(settle=0.5, timeout=60)
                close_at = time.time() + 3.0
                updated = await conn.execute(
                    "UPDATE asks SET closes_at = $1 WHERE closed_at IS NULL", int(close_at * 1000)
                )
                close_mono = time.monotonic() + (close_at - time.time())
                print(
                    f"{updated}: all close at one moment, {close_at - time.time():.1f} s ahead",
                    flush=True,
                )
                with _fake_without_gc_pauses():
                    kill_after = round(len(ids) * args.kill_at)
                    await wait_until(
                        lambda: len(reveal_calls(fake)) >= kill_after, 120, "the kill point"
                    )
                    before = len(reveal_calls(fake))
                    killed_at = time.monotonic()
                    await leader.process.kill()
                    print(
                        f"SIGKILLed the leader {killed_at - close_mono:.2f} s after the close "
                        f"moment, after {before} reveals",
                        flush=True,
                    )

                    async def all_closed() -> bool:
                        left = await conn.fetchval(
                            "SELECT count(*) FROM asks WHERE closed_at IS NULL"
                        )
                        return bool(left == 0)

                    deadline = time.monotonic() + 120
                    while time.monotonic() < deadline:
                        if await all_closed() and len(
                            {(c, m) for _, c, m in reveal_calls(fake)}
                        ) >= len(ids):
                            break
                        await asyncio.sleep(0.25)
                    await asyncio.sleep(3.0)  # time for a late second reveal
                    with contextlib.suppress(TimeoutError):
                        await fake.idle(settle=0.1, timeout=10)
                reveals = reveal_calls(fake)
                per_question = Counter((c, m) for _, c, m in reveals)
                questions = {(c, m) for c, ms in fake.questions.items() for m in ms}
                counts = Counter(per_question.get(q, 0) for q in questions)
                open_left = await conn.fetchval("SELECT count(*) FROM asks WHERE closed_at IS NULL")
                asks = await conn.fetchval("SELECT count(*) FROM asks")
                in_flight, gap = takeover_after(sorted(t for t, _, _ in reveals), killed_at)
                last = max(t for t, _, _ in reveals) - close_mono if reveals else float("nan")
            finally:
                await conn.close()
                for replica in replicas:
                    await replica.process.terminate()
            print(
                f"asks {asks}, still open {open_left}; questions delivered {len(questions)}; "
                f"questions per chat > 1: {sum(1 for v in fake.questions.values() if len(v) > 1)}"
            )
            print(
                f"reveal edits per question: {dict(sorted(counts.items()))} "
                f"(target: all {len(questions)} exactly 1)"
            )
            print(
                f"kill → the survivor's first reveal {gap:.2f} s ({in_flight} in the first "
                f"{IN_FLIGHT_WINDOW * 1000:.0f} ms); close moment → last reveal {last:.1f} s; "
                f"429s {fake.rejected_429}"
            )
            _print_logs(replicas)
            return open_left == 0 and set(counts) == {1} and fake.rejected_429 == 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--mode", choices=("daily", "closing"), default="daily")
    parser.add_argument("--chats", type=int, help="daily: 5000; closing: 500")
    parser.add_argument(
        "--scale", type=float, help="Telegram's limits × this (daily 10, closing 1)"
    )
    parser.add_argument("--latency", type=float, default=0.0, help="fake latency per call, ms")
    parser.add_argument(
        "--kill-at", type=float, default=0.4, help="share sent when the leader dies"
    )
    args = parser.parse_args(argv)
    daily = args.mode == "daily"
    args.chats = args.chats or (5000 if daily else 500)
    args.scale = args.scale or (10.0 if daily else 1.0)
    import os

    print(
        f"mode {args.mode}: {args.chats} chats, limits ×{args.scale:g}, latency "
        f"{args.latency:g} ms; {os.cpu_count()} cores; load {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    started = time.monotonic()
    with pg_admin() as admin:
        ok = asyncio.run((run_daily if daily else run_closing)(admin, args))
    verdict = "all targets met" if ok else "a target was MISSED"
    print(f"{verdict} (took {time.monotonic() - started:.0f} s)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
