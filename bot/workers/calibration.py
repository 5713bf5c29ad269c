"""The item calibration's schedule (the leader's, with replicas): every deck refitted once the
last stored fit is older than the configured interval.

It checks every minute against the stored date of the last fit, so a restart or a new leader
keeps the schedule and never fits twice in a row. The fit itself runs in a child process at
the lowest CPU priority (`in_low_priority_process`), never on the event loop or the answer
path: in a thread of the bot's process it held the interpreter lock long enough to delay the
event loop by up to 200 ms (benchmarks/README.md, "Item calibration").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from datetime import timedelta
from typing import TypeVar

from bot.core.calibration import Calibration
from bot.core.catalog import Catalog
from bot.core.clock import Clock
from bot.core.ports import CalibrationStore

log = logging.getLogger(__name__)

CHECK_SECONDS = 60.0
# The fit's process gives way to every other (os.nice: 19 is the lowest priority).
NICENESS = 19
T = TypeVar("T")


def _lower_priority() -> None:
    os.nice(NICENESS)


async def in_low_priority_process(work: Callable[[], T]) -> T:
    """`work` (picklable: a partial of module-level names) in a fresh child process at the
    lowest CPU priority. Spawned, not forked: the child inherits none of the bot's threads,
    locks or connections. Cancelled, the child finishes its work and exits unheard."""
    pool = ProcessPoolExecutor(
        max_workers=1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_lower_priority,
    )
    try:
        return await asyncio.get_running_loop().run_in_executor(pool, work)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


class CalibrationWorker:
    def __init__(
        self,
        *,
        calibration: Calibration,
        clock: Clock,
        every: timedelta,
        check_seconds: float = CHECK_SECONDS,
        expected: Callable[[BaseException], bool] = lambda _: False,
    ) -> None:
        if every <= timedelta(0):
            raise ValueError("the calibration interval must be positive")
        self._calibration, self._clock, self.every = calibration, clock, every
        self._check_seconds = check_seconds
        self._expected = expected
        self._task: asyncio.Task[None] | None = None
        self.fits = 0  # fits run by this worker (tests and logs)

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        """Check now and every `check_seconds` (when this replica becomes the leader)."""
        if not self.running:
            self._task = asyncio.create_task(self._run(), name="calibration")

    async def stop(self) -> None:
        """Stop checking; a fit in progress is abandoned unsaved (when leadership is lost)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def run_if_due(self) -> bool:
        """Refit every deck if the last fit is older than the interval; whether it did."""
        last = await self._calibration.last_calibrated()
        if last is not None and self._clock.now() - last < self.every:
            return False
        fitted = await self._calibration.calibrate()
        self.fits += 1
        for deck in fitted:
            log.info(
                "calibrated %s: %d questions fitted, %d on priors, from %d first answers",
                deck.deck_id,
                deck.fitted,
                deck.prior_only,
                deck.answers,
            )
        return True

    async def _run(self) -> None:
        while True:
            try:
                await self.run_if_due()
            except Exception as error:
                if self._expected(error):
                    log.warning("calibration failed (%s); trying again later", error)
                else:
                    log.exception("calibration failed; trying again later")
            await asyncio.sleep(self._check_seconds)


def calibration_worker(
    every_hours: int,
    store: CalibrationStore,
    catalog: Catalog,
    clock: Clock,
    *,
    expected: Callable[[BaseException], bool] = lambda _: False,
) -> CalibrationWorker | None:
    """The leader's item calibration every `every_hours` (QUIZBOT_CALIBRATE_EVERY_HOURS), in a
    low-priority process; None when the schedule is off (0)."""
    if every_hours == 0:
        return None
    calibration = Calibration(
        store=store,
        decks={deck.id: deck for deck in catalog.all()},
        clock=clock,
        run_blocking=in_low_priority_process,
    )
    return CalibrationWorker(
        calibration=calibration, clock=clock, every=timedelta(hours=every_hours), expected=expected
    )
