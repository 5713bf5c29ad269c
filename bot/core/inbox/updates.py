"""Each update acted on once: a redelivered update (a webhook retried after a lost response,
another replica, a polling restart before the offset was confirmed) is recognised by its
`update_id` and changes nothing.

The record is written by the first transaction the handling commits, in that commit, so an
update whose handling changed anything is always recognised, and two handlings of one update
at the same moment cannot both change anything. An update whose handling wrote nothing in a
transaction is recorded when it is done. Records are kept for 24 hours, as long as Telegram
keeps an update it could not deliver. (The edge may hand an update over without the log when
its handling is idempotent by itself: see `bot/runners/processor.py`.)
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import timedelta

from bot.core.clock import Clock
from bot.core.model import UpdateMark
from bot.core.ports import HandledUpdates

KEPT_FOR = timedelta(hours=24)


class UpdateLog:
    def __init__(self, *, updates: HandledUpdates, clock: Clock) -> None:
        self._updates = updates
        self._clock = clock

    async def seen(self, update_id: int) -> bool:
        """Acted on before: answer it without acting again."""
        return await self._updates.was_handled(update_id)

    def acting_on(self, update_id: int) -> AbstractContextManager[UpdateMark]:
        """Handle the update inside this block (see the module's docstring)."""
        return self._updates.acting_on(UpdateMark(update_id, self._clock.now()))

    async def handled(self, mark: UpdateMark) -> None:
        """The handling is over and succeeded: record it, if no transaction did."""
        if not mark.recorded:
            mark.recorded = await self._updates.record_handled(mark) or mark.recorded

    async def prune(self) -> int:
        """Forget the updates Telegram can no longer deliver again."""
        return await self._updates.forget_handled_before(self._clock.now() - KEPT_FOR)
