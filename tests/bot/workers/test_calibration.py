"""The calibration worker: refits when the last stored fit is older than the interval, and
only while this replica leads."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import cast

import pytest
from pydantic import ValidationError

from bot.config import Settings
from bot.core.calibration import Calibration
from bot.core.catalog import Catalog
from bot.core.model import LearnSource
from bot.transport.ratelimit import SlidingWindowRateLimiter
from bot.workers.background import NICENESS, in_low_priority_process
from bot.workers.calibration import CalibrationWorker, calibration_worker
from bot.workers.leader import LeaderLoop
from storage.sql.store import SqlStore
from storage.sqlite import SqliteStore
from tests.builders import simple_deck
from tests.fakes.clock import FakeClock

DAY = timedelta(hours=24)


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
        for user in range(30):
            for question in ("q0", "q1"):
                right = (user + len(question)) % 3 != 0
                at = FakeClock().now() - DAY
                await writes.log_learning(user, "deck", question, right, at, None, LearnSource.QUIZ)
    try:
        yield opened
    finally:
        await opened.close()


def _worker(store: SqliteStore, clock: FakeClock) -> CalibrationWorker:
    calibration = Calibration(store=store, decks={"deck": simple_deck(3)}, clock=clock)
    return CalibrationWorker(calibration=calibration, clock=clock, every=DAY, check_seconds=0.01)


async def test_a_refit_happens_once_the_last_fit_is_older_than_the_interval(
    store: SqliteStore,
) -> None:
    """No fit yet: fit now; then nothing until a day has passed since the stored fit."""
    clock = FakeClock()
    worker = _worker(store, clock)
    assert await worker.run_if_due()
    assert not await worker.run_if_due()
    clock.advance(hours=23, minutes=59)
    assert not await worker.run_if_due()
    clock.advance(minutes=1)
    assert await worker.run_if_due()
    assert await store.last_calibrated() == clock.now()
    assert len(await store.item_parameters("deck")) == 3


async def test_the_worker_runs_only_while_this_replica_leads(store: SqliteStore) -> None:
    """A follower never fits; becoming the leader starts the schedule (a fit at once), losing
    leadership stops it."""
    clock = FakeClock()
    worker = _worker(store, clock)
    loop = LeaderLoop(
        replica="me",
        leadership=Scripted(False, False, True, False),
        replicas=store,
        limiter=SlidingWindowRateLimiter(),
        clock=clock,
        lead=_started(worker),
        follow=worker.stop,
    )
    for _ in range(2):
        await loop.check()
        await asyncio.sleep(0.05)
    assert (worker.running, worker.fits) == (False, 0)
    assert await store.last_calibrated() is None
    await loop.check()
    for _ in range(200):
        if worker.fits:
            break
        await asyncio.sleep(0.01)
    assert (worker.running, worker.fits) == (True, 1)
    await loop.check()
    assert not worker.running
    assert await store.last_calibrated() == clock.now()


def _started(worker: CalibrationWorker):
    async def lead() -> None:
        worker.start()

    return lead


def test_an_interval_of_zero_is_refused() -> None:
    """The schedule off is no worker at all (bot.app), not a worker refitting constantly."""
    with pytest.raises(ValueError, match="positive"):
        CalibrationWorker(
            calibration=None,  # type: ignore[arg-type]
            clock=FakeClock(),
            every=timedelta(0),
        )


def test_the_schedule_setting_makes_the_worker_or_none(tmp_path: Path) -> None:
    """QUIZBOT_CALIBRATE_EVERY_HOURS=0 builds no worker; 6 builds one refitting 6-hourly;
    a negative interval is refused by the settings."""
    catalog = Catalog({"deck": simple_deck(2)})
    store = cast(SqlStore, object())
    off = Settings(database=str(tmp_path / "q.sqlite3"), calibrate_every_hours=0)
    assert calibration_worker(off.calibrate_every_hours, store, catalog, FakeClock()) is None
    six = Settings(database=str(tmp_path / "q.sqlite3"), calibrate_every_hours=6)
    worker = calibration_worker(six.calibrate_every_hours, store, catalog, FakeClock())
    assert worker is not None
    assert worker.every == timedelta(hours=6)
    with pytest.raises(ValidationError):
        Settings(calibrate_every_hours=-1)


async def test_the_fit_runs_in_another_process_at_the_lowest_priority() -> None:
    """`in_low_priority_process` (how the bot fits) runs the work in a spawned child whose
    niceness is the lowest priority's."""
    child = await in_low_priority_process(os.getpid)
    assert child != os.getpid()
    assert await in_low_priority_process(partial(os.nice, 0)) == NICENESS
