"""Updates acted on (`handled_updates`) and group members' command allowance
(`command_allowance`): state every replica must see the same."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

from bot.core.model import UpdateMark
from storage.sql.base import ACTING_ON, RECORD_UPDATE, StoreBase
from storage.sql.rows import to_ms

# One atomic statement per command: a window that ended starts again with this command.
_COUNT_COMMAND = (
    "INSERT INTO command_allowance (chat_id, user_id, window_start, used) VALUES (?1, ?2, ?3, 1) "
    "ON CONFLICT (chat_id, user_id) DO UPDATE SET "
    "used = CASE WHEN command_allowance.window_start <= ?3 - ?4 THEN 1 "
    "ELSE command_allowance.used + 1 END, "
    "window_start = CASE WHEN command_allowance.window_start <= ?3 - ?4 THEN ?3 "
    "ELSE command_allowance.window_start END "
    "RETURNING used"
)


class UpdateQueries(StoreBase):
    async def was_handled(self, update_id: int) -> bool:
        row = await self._db.fetch_one(
            "SELECT 1 FROM handled_updates WHERE update_id = ?", (update_id,)
        )
        return row is not None

    @contextmanager
    def acting_on(self, mark: UpdateMark) -> Iterator[UpdateMark]:
        token = ACTING_ON.set(mark)
        try:
            yield mark
        finally:
            ACTING_ON.reset(token)

    async def record_handled(self, mark: UpdateMark) -> bool:
        return await self._db.execute(RECORD_UPDATE, (mark.update_id, to_ms(mark.at))) == 1

    async def forget_handled_before(self, before: datetime) -> int:
        return await self._db.execute(
            "DELETE FROM handled_updates WHERE handled_at < ?", (to_ms(before),)
        )

    async def count_command(self, chat_id: int, user_id: int, now: datetime, window_ms: int) -> int:
        async with self._db.autocommit() as conn:
            row = await conn.fetch_one(_COUNT_COMMAND, (chat_id, user_id, to_ms(now), window_ms))
        return 1 if row is None else int(row["used"])

    async def forget_allowances_before(self, before: datetime) -> int:
        """Drop the windows that ended before `before` (they would start again anyway)."""
        return await self._db.execute(
            "DELETE FROM command_allowance WHERE window_start < ?", (to_ms(before),)
        )
