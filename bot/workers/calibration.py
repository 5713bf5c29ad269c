"""The item calibration's schedule (the leader's, with replicas): every deck refitted once the
last stored fit is older than the configured interval.

It checks every minute against the stored date of the last fit, so a restart or a new leader
keeps the schedule and never fits twice in a row. The fit itself runs in a child process at
the lowest CPU priority (`bot.workers.background.in_low_priority_process`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import timedelta

from bot.core.calibration import Calibration
from bot.core.catalog import Catalog
from bot.core.clock import Clock
from bot.core.ports import CalibrationStore
from bot.workers.background import LeaderJob, in_low_priority_process

log = logging.getLogger(__name__)

CHECK_SECONDS = 60.0


class CalibrationWorker(LeaderJob):
    name = "calibration"

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
        super().__init__(check_seconds=check_seconds, expected=expected)
        self._calibration, self._clock, self.every = calibration, clock, every
        self.fits = 0  # fits run by this worker (tests and logs)

    async def step(self) -> bool:
        return await self.run_if_due()

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
