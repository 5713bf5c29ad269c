"""The personal memory fits' worker: fits the learners due one, only while this replica leads,
each fit in a low-priority child process."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.core.memory.fit.service import MemoryFitting
from bot.core.memory.fit.simulate import scaled, simulated_presses
from bot.core.memory.scheduling import Memory
from bot.core.model import LearnSource
from bot.transport.ratelimit import SlidingWindowRateLimiter
from bot.workers.leader import LeaderLoop
from bot.workers.memory_fit import MemoryFitWorker, memory_fit_worker
from storage.sqlite import SqliteStore
from tests.fakes.clock import FakeClock

START = datetime(2026, 1, 5, tzinfo=UTC)
ALICE = 7


class Scripted:
    """Leadership that answers `hold()` from a script."""

    def __init__(self, *answers: bool) -> None:
        self.answers = list(answers)

    async def hold(self) -> bool:
        return self.answers.pop(0)

    async def resign(self) -> None:
        return None


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    opened = await SqliteStore.open(tmp_path / "q.sqlite3")
    async with opened.transaction() as writes:
        for press in simulated_presses(scaled(0.25, decay=0.5), 120, seed=0, start=START):
            await writes.log_learning(
                ALICE, "deck", press.question_id, press.correct, press.at, None, LearnSource.QUIZ
            )
    try:
        yield opened
    finally:
        await opened.close()


def _fitting(store: SqliteStore) -> MemoryFitting:
    return MemoryFitting(store=store, memory=Memory(fits=store), clock=FakeClock(), min_reviews=100)


async def test_the_worker_fits_only_while_this_replica_leads(store: SqliteStore) -> None:
    """A follower never fits; becoming the leader fits the learner due at once; losing
    leadership stops the worker."""
    worker = MemoryFitWorker(fitting=_fitting(store), check_seconds=0.01)

    async def lead() -> None:
        worker.start()

    loop = LeaderLoop(
        replica="me",
        leadership=Scripted(False, False, True, False),
        replicas=store,
        limiter=SlidingWindowRateLimiter(),
        clock=FakeClock(),
        lead=lead,
        follow=worker.stop,
    )
    for _ in range(2):
        await loop.check()
        await asyncio.sleep(0.05)
    assert (worker.running, worker.fits) == (False, 0)
    assert await store.memory_fit(ALICE, "deck") is None
    await loop.check()
    for _ in range(500):
        if worker.fits:
            break
        await asyncio.sleep(0.01)
    assert (worker.running, worker.fits) == (True, 1)
    await loop.check()
    assert not worker.running
    fit = await store.memory_fit(ALICE, "deck")
    assert fit is not None
    assert fit.reviews == 120


async def test_the_bots_worker_fits_in_a_child_process(store: SqliteStore) -> None:
    """The worker the app builds runs each fit in a low-priority process and stores it."""
    worker = memory_fit_worker(_fitting(store))
    assert await worker.run_once() == 1
    assert await worker.run_once() == 0
    assert await store.memory_fit(ALICE, "deck") is not None
