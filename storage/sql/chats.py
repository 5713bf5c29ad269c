"""Per-chat settings and the chat's life: time zone, deck, active or removed, a new id."""

from __future__ import annotations

from datetime import datetime

from bot.core.model import ChatKind, ChatRef, ChatSettings
from bot.core.ports import PeriodBounds
from storage.sql.base import StoreBase
from storage.sql.moves import move_chat


class ChatQueries(StoreBase):
    async def upsert_chat(self, chat: ChatRef, now: datetime) -> None:
        async with self._autocommit() as writes:
            await writes.upsert_chat(chat, now)

    async def chat(self, chat_id: int) -> ChatSettings | None:
        row = await self._db.fetch_one(
            "SELECT id, kind, timezone, deck_id, active FROM chats WHERE id = ?", (chat_id,)
        )
        if row is None:
            return None
        return ChatSettings(
            id=row["id"],
            kind=ChatKind(row["kind"]),
            timezone=row["timezone"],
            deck_id=row["deck_id"],
            active=bool(row["active"]),
        )

    async def set_timezone(self, chat_id: int, zone_key: str) -> None:
        await self._db.execute("UPDATE chats SET timezone = ? WHERE id = ?", (zone_key, chat_id))

    async def set_deck(self, chat_id: int, deck_id: str) -> None:
        await self._db.execute("UPDATE chats SET deck_id = ? WHERE id = ?", (deck_id, chat_id))

    async def set_active(self, chat_id: int, active: bool) -> bool:
        """Mark the chat active or not; True when that changed anything."""
        changed = await self._db.execute(
            "UPDATE chats SET active = ? WHERE id = ? AND active != ?",
            (int(active), chat_id, int(active)),
        )
        return changed == 1

    async def move_chat(
        self, old_id: int, new_id: int, bounds: PeriodBounds, now: datetime
    ) -> bool:
        """Move everything keyed by `old_id` to `new_id` (group → supergroup) in one
        transaction, whichever chat was seen first; False when there was nothing to move.

        Telegram announces a migration in both chats, so a second call finds nothing left.
        """
        async with self._db.transaction() as conn:
            return await move_chat(conn, old_id, new_id, bounds, now)
