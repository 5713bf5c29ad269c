"""The updates the bot has acted on, remembered as long as Telegram may deliver them again."""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import datetime
from typing import Protocol

from bot.core.model import UpdateMark


class HandledUpdates(Protocol):
    async def was_handled(self, update_id: int) -> bool:
        """Whether the update was recorded as acted on."""
        ...

    def acting_on(self, mark: UpdateMark) -> AbstractContextManager[UpdateMark]:
        """While the block runs (in this task), the first transaction that commits records
        `mark.update_id` in the same commit, or raises `UpdateAlreadyHandledError` (rolled back)
        when another handling recorded it first."""
        ...

    async def record_handled(self, mark: UpdateMark) -> bool:
        """Record the update on its own (its handling committed no transaction); False when
        it was recorded already."""
        ...

    async def forget_handled_before(self, before: datetime) -> int:
        """Forget updates recorded before `before`; how many."""
        ...
