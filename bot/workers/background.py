"""What the leader's heavy background jobs share (item calibration, personal memory fits): a
loop that runs one step now and every `check_seconds` while this replica leads, logging a
failed step and going on; and the child process at the lowest CPU priority the work runs in,
never on the event loop or the answer path (in a thread of the bot's process a fit held the
interpreter lock long enough to delay the loop by up to 200 ms: benchmarks/README.md, "Item
calibration")."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

log = logging.getLogger(__name__)

# The work's process gives way to every other (os.nice: 19 is the lowest priority).
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


class LeaderJob:
    """A step (:meth:`step`) run now and every `check_seconds` between :meth:`start` (this
    replica became the leader) and :meth:`stop` (it no longer is). A failed step is logged
    (one line when `expected` says the failure is an ordinary one) and tried at the next
    check."""

    name = "background job"  # the task's name and the logs' subject

    def __init__(self, *, check_seconds: float, expected: Callable[[BaseException], bool]) -> None:
        self._check_seconds = check_seconds
        self._expected = expected
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        if not self.running:
            self._task = asyncio.create_task(self._run(), name=self.name)

    async def stop(self) -> None:
        """Stop; a step in progress is abandoned unsaved."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def step(self) -> object:
        raise NotImplementedError

    async def _run(self) -> None:
        while True:
            try:
                await self.step()
            except Exception as error:
                if self._expected(error):
                    log.warning("%s failed (%s); trying again later", self.name, error)
                else:
                    log.exception("%s failed; trying again later", self.name)
            await asyncio.sleep(self._check_seconds)
