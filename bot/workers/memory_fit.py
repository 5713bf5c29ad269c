"""The personal memory fits' schedule (the leader's, with replicas): every hour, each learner
with enough presses in a deck who was never fitted there, or whose presses grew by a quarter
since, gets their own FSRS parameters fitted (bot/core/memory/fit/).

Like the item calibration, the fits run in a child process at the lowest CPU priority
(bot/workers/background.py), 20 learners to a process, never on the event loop or the answer
path; the stored fits say who is due, so a restart or a new leader never fits anyone twice for
nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.core.memory.fit.service import MemoryFitting
from bot.workers.background import LeaderJob, in_low_priority_process

log = logging.getLogger(__name__)

CHECK_SECONDS = 3600.0


class MemoryFitWorker(LeaderJob):
    name = "memory fits"

    def __init__(
        self,
        *,
        fitting: MemoryFitting,
        check_seconds: float = CHECK_SECONDS,
        expected: Callable[[BaseException], bool] = lambda _: False,
    ) -> None:
        super().__init__(check_seconds=check_seconds, expected=expected)
        self._fitting = fitting
        self.fits = 0  # learners fitted by this worker (tests and logs)

    async def step(self) -> int:
        return await self.run_once()

    async def run_once(self) -> int:
        """Fit every learner due a fit; how many were fitted."""
        fitted = await self._fitting.fit_due()
        self.fits += len(fitted)
        for fit in fitted:
            log.info(
                "memory fit of user %d in %s on %d reviews: %s (log loss %.4f, defaults %.4f)",
                fit.user_id,
                fit.deck_id,
                fit.reviews,
                "kept" if fit.personal else "defaults kept",
                fit.fitted_loss,
                fit.default_loss,
            )
        return len(fitted)


def memory_fit_worker(
    fitting: MemoryFitting, *, expected: Callable[[BaseException], bool] = lambda _: False
) -> MemoryFitWorker:
    """The leader's personal memory fits, each in a low-priority process."""
    return MemoryFitWorker(fitting=fitting.running_in(in_low_priority_process), expected=expected)
