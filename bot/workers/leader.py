"""Replicas on one PostgreSQL database: each says it is alive every second and keeps to its
share of Telegram's limits; one of them, the leader, runs the background work.

The leader holds a session advisory lock (`Leadership`); when it dies the lock goes with its
connection and the next replica to check takes over within about a second. Leadership only
decides who does the work; claims keep two replicas from doing the same piece of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections import deque
from collections.abc import Awaitable, Callable
from datetime import timedelta

from bot import metrics
from bot.core.clock import Clock
from bot.core.ports.replicas import Leadership, ReplicaStore
from bot.transport.ratelimit import SlidingWindowRateLimiter

log = logging.getLogger(__name__)

BEAT_SECONDS = 1.0
# A replica not heard from for this long no longer counts for the sending budget.
ALIVE_FOR = timedelta(seconds=3)
# A chat's send claim lasts this long; the sender renews it while it works the chat.
CHAT_LEASE = timedelta(seconds=30)
# After a replica is gone, its sends still count in Telegram's windows for up to a minute (a
# group's window): the others keep their smaller share that long before taking its part.
SHARE_MEMORY_SECONDS = 60.0


def replica_name() -> str:
    """Unique per process: host, pid and a random part (a restarted pid is another replica)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class StoreChatClaims:
    """`ChatClaims` on the database, renewed at most every third of the lease."""

    def __init__(self, store: ReplicaStore, replica: str, clock: Clock) -> None:
        self._store, self._replica, self._clock = store, replica, clock
        self._renewed: dict[int, float] = {}

    async def claim(self, chat_id: int) -> bool:
        now = self._clock.now()
        last = self._renewed.get(chat_id)
        if last is not None and now.timestamp() - last < CHAT_LEASE.total_seconds() / 3:
            return True
        if await self._store.claim_chat(chat_id, self._replica, now, now + CHAT_LEASE):
            self._renewed[chat_id] = now.timestamp()
            return True
        self._renewed.pop(chat_id, None)
        return False

    async def release(self, chat_id: int) -> None:
        self._renewed.pop(chat_id, None)
        await self._store.release_chat(chat_id, self._replica)


class LeaderLoop:
    def __init__(
        self,
        *,
        replica: str,
        leadership: Leadership,
        replicas: ReplicaStore,
        limiter: SlidingWindowRateLimiter,
        clock: Clock,
        lead: Callable[[], Awaitable[None]],
        follow: Callable[[], Awaitable[None]],
    ) -> None:
        self.replica = replica
        self._leadership, self._replicas, self._limiter = leadership, replicas, limiter
        self._clock, self._lead, self._follow = clock, lead, follow
        self.leading = False
        self._counts: deque[tuple[float, int]] = deque()  # (when, replicas alive)
        self._task: asyncio.Task[None] | None = None
        self.changed = asyncio.Event()  # set on every change of leadership (tests wait on it)

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="leader")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self.leading:
            await self._step_down()
        await self._leadership.resign()
        with contextlib.suppress(Exception):
            await self._replicas.retire(self.replica)

    async def check(self) -> None:
        """One beat: heartbeat and budget share, then take, keep or lose leadership."""
        now = self._clock.now()
        try:
            alive = await self._replicas.heartbeat(self.replica, now, now - ALIVE_FOR)
        except Exception:
            log.exception("heartbeat failed")
        else:
            self._limiter.set_share(self._share(now.timestamp(), alive))
        holds = await self._leadership.hold()
        if holds and not self.leading:
            log.info("replica %s is now the leader", self.replica)
            self.leading = True
            metrics.set_leader(True)
            self.changed.set()
            await self._lead()
        elif not holds and self.leading:
            log.warning("replica %s is no longer the leader", self.replica)
            await self._step_down()
        if self.leading:
            # A replica that died while sending a chat's messages leaves its claim behind.
            try:
                await self._replicas.release_dead_claims(now - ALIVE_FOR)
            except Exception:
                log.exception("releasing dead replicas' claims failed")

    def _share(self, moment: float, alive: int) -> int:
        """The most replicas alive in the last minute: a newcomer shrinks the share at once,
        a departure grows it only once its sends have left Telegram's windows."""
        counts = self._counts
        counts.append((moment, alive))
        while counts and counts[0][0] < moment - SHARE_MEMORY_SECONDS:
            counts.popleft()
        return max(n for _, n in counts)

    async def _step_down(self) -> None:
        self.leading = False
        metrics.set_leader(False)
        self.changed.set()
        await self._follow()

    async def _run(self) -> None:
        while True:
            try:
                await self.check()
            except Exception:
                log.exception("leadership check failed; trying again in a second")
            await asyncio.sleep(BEAT_SECONDS)
