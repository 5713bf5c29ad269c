"""The item calibration's schedule (the leader's, with replicas): every deck refitted once the
last stored fit is older than the configured interval.

It checks every minute against the stored date of the last fit, so a restart or a new leader
keeps the schedule and never fits twice in a row. The fit itself runs in a worker thread
(bot/core/calibration/service.py), never on the event loop or the answer path.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import timedelta

from bot.core.calibration import Calibration
from bot.core.clock import Clock

log = logging.getLogger(__name__)

CHECK_SECONDS = 60.0


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
