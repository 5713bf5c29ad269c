"""The personal memory fits' schedule (the leader's, with replicas): every hour, each learner
with enough presses in a deck who was never fitted there, or whose presses grew by a quarter
since, gets their own FSRS parameters fitted (bot/core/memory/fit/).

Like the item calibration (bot/workers/calibration.py), the fits run in a child process at the
lowest CPU priority (`in_low_priority_process`), 20 learners to a process, never on the event
loop or the answer path; the
stored fits say who is due, so a restart or a new leader never fits anyone twice for nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from bot.core.memory.fit.service import MemoryFitting
from bot.workers.calibration import in_low_priority_process

log = logging.getLogger(__name__)

CHECK_SECONDS = 3600.0


class MemoryFitWorker:
    def __init__(
        self,
        *,
        fitting: MemoryFitting,
        check_seconds: float = CHECK_SECONDS,
        expected: Callable[[BaseException], bool] = lambda _: False,
    ) -> None:
        self._fitting = fitting
        self._check_seconds = check_seconds
        self._expected = expected
        self._task: asyncio.Task[None] | None = None
        self.fits = 0  # learners fitted by this worker (tests and logs)

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        """Fit the learners due now and every `check_seconds` (when this replica leads)."""
        if not self.running:
            self._task = asyncio.create_task(self._run(), name="memory-fit")

    async def stop(self) -> None:
        """Stop; a fit in progress is abandoned unsaved (when leadership is lost)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

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

    async def _run(self) -> None:
        while True:
            try:
                await self.run_once()
            except Exception as error:
                if self._expected(error):
                    log.warning("memory fits failed (%s); trying again later", error)
                else:
                    log.exception("memory fits failed; trying again later")
            await asyncio.sleep(self._check_seconds)


def memory_fit_worker(
    fitting: MemoryFitting, *, expected: Callable[[BaseException], bool] = lambda _: False
) -> MemoryFitWorker:
    """The leader's personal memory fits, each in a low-priority process."""
    return MemoryFitWorker(fitting=fitting.running_in(in_low_priority_process), expected=expected)
