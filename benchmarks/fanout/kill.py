"""`benchmarks.fanout --kill`: SIGKILL the bot in the middle of a fan-out, restart it on the
same database, and count lost and duplicated pushes.

The kill comes once a seeded random 10–90% of the questions were delivered. "Unconfirmed" are
the questions delivered whose ledger row was not yet 'sent' when the bot died: a ledger written
before each send and closed after it can send those, and only those, twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from dataclasses import dataclass, field
from random import Random

from benchmarks.fanout.bot import BotProcess
from benchmarks.fanout.ledger import chat_ids
from benchmarks.fanout.run import (
    SETTLE_SECONDS,
    bot_log_summary,
    check_ledger,
    duplicates_and_missing,
    prepared,
    timeout_for,
    wait_done,
)
from bot.playground.botapi.ratelimit import is_rate_limited_method


@dataclass
class KillRun:
    seed: int
    chats: int
    scale: float
    kill_after: int = 0  # the delivered count the kill waited for
    delivered_at_kill: int = 0  # questions delivered when the bot was dead
    inflight_at_kill: int = 0  # rate-limited requests the fake was still handling
    unconfirmed_at_kill: int = 0  # delivered, but the ledger row not 'sent' (the bound)
    pending_at_kill: int = 0
    ledger_rows_at_kill: int = 0
    lost: int = 0
    duplicated: int = 0
    extra: int = 0
    rejected_429: int = 0
    timed_out: bool = False
    exit_code: int | None = None
    traceback: bool = False
    ledger_ok: bool = False
    peak_hwm_kb: int = 0
    first_log: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return (
            self.lost == 0
            and self.duplicated <= self.unconfirmed_at_kill
            and not self.timed_out
            and self.ledger_ok
        )


async def run_kill(seed: int, chats: int, scale: float, latency_ms: float) -> KillRun:
    rng = Random(seed)
    result = KillRun(seed, chats, scale)
    result.kill_after = rng.randint(math.ceil(chats * 0.1), math.floor(chats * 0.9))
    ids = chat_ids(chats)
    async with prepared(chats, scale, latency_ms, "quizbot-fanout-kill-") as setup:
        fake = setup.fake
        first = BotProcess(setup.env, setup.folder / "bot-1.log")
        await first.start()
        try:
            await first.wait_ready(fake, 0)
            await fake.wait_until(
                lambda: fake.delivered >= result.kill_after,
                timeout_for(chats, scale),
                what=f"{result.kill_after} questions",
            )
        except BaseException:
            await first.terminate()
            raise
        # Counted just before the signal: requests the fake had not answered yet.
        result.inflight_at_kill = sum(
            1 for c in fake.calls if is_rate_limited_method(c.method) and c.status is None
        )
        await first.kill()
        # Requests already in the fake's socket buffers are still served: give them a moment.
        await asyncio.sleep(0.5)
        result.delivered_at_kill = fake.delivered
        ledger = await setup.ledger(ids)
        result.pending_at_kill = ledger.pending
        result.ledger_rows_at_kill = ledger.rows
        result.unconfirmed_at_kill = sum(1 for c in fake.questions if c not in ledger.sent)
        print(
            f"  seed {seed}: SIGKILL after {result.kill_after} questions "
            f"(delivered {result.delivered_at_kill}, in flight at the fake "
            f"{result.inflight_at_kill}, delivered but not 'sent' in the ledger "
            f"{result.unconfirmed_at_kill}, pending rows {result.pending_at_kill}); "
            "restarting",
            flush=True,
        )
        second = BotProcess(setup.env, setup.folder / "bot-2.log")
        since = len(fake.calls)
        await second.start()
        try:
            await second.wait_ready(fake, since)
            deadline = time.monotonic() + timeout_for(chats, scale)
            done = await wait_done(fake, second, setup.store, ids, deadline)
            result.timed_out = not done
            if done:
                await asyncio.sleep(SETTLE_SECONDS)
        finally:
            result.exit_code = await second.terminate()
        with contextlib.suppress(TimeoutError):
            await fake.idle(settle=0.1, timeout=10)
        result.duplicated, result.extra, result.lost = duplicates_and_missing(fake, ids)
        result.rejected_429 = fake.rejected_429
        final = await setup.ledger(ids)
        result.ledger_ok = (
            len(final.sent) == chats and final.rows == chats and check_ledger(final, fake) == 0
        )
        result.peak_hwm_kb = max(first.peak_hwm_kb, second.peak_hwm_kb)
        result.traceback, _, result.first_log = bot_log_summary(
            first.log_text() + second.log_text()
        )
    return result
