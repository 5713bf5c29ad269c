"""Per-chat settings and the chat's life: time zone, active or removed, group → supergroup."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.domain import ChatKind
from storage.db import Database

# Tables whose rows belong to a chat; moved when a group becomes a supergroup.
_CHAT_TABLES = ("asks", "answers", "rounds")
# Keyed by chat: when the new chat has its own rows already, those win.
_KEYED_CHAT_TABLES = ("daily_schedules", "daily_pushes")


@dataclass(frozen=True)
class ChatSettings:
    id: int
    kind: ChatKind
    timezone: str | None
    deck_id: str | None
    active: bool


class ChatRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, chat_id: int) -> ChatSettings | None:
        row = await self.db.fetch_one(
            "SELECT id, kind, timezone, deck_id, active FROM chats WHERE id = ?", (chat_id,)
        )
        if row is None:
            return None
        return ChatSettings(row[0], ChatKind(row[1]), row[2], row[3], bool(row[4]))

    async def set_timezone(self, chat_id: int, zone: str) -> None:
        async with self.db.transaction() as conn:
            await conn.execute("UPDATE chats SET timezone = ? WHERE id = ?", (zone, chat_id))

    async def set_deck(self, chat_id: int, deck_id: str) -> None:
        async with self.db.transaction() as conn:
            await conn.execute("UPDATE chats SET deck_id = ? WHERE id = ?", (deck_id, chat_id))

    async def set_active(self, chat_id: int, active: bool) -> bool:
        """Mark the chat active or not; True when that changed anything."""
        async with self.db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE chats SET active = ? WHERE id = ? AND active != ?",
                (int(active), chat_id, int(active)),
            )
            return cursor.rowcount == 1

    async def move(self, old_id: int, new_id: int) -> bool:
        """Move a chat's settings, questions and scores to its new id (group → supergroup).

        Idempotent: Telegram announces a migration in both chats, so the second call finds
        nothing left to move. Returns True when something moved.
        """
        async with self.db.transaction() as conn:
            async with conn.execute("SELECT 1 FROM chats WHERE id = ?", (old_id,)) as cursor:
                if await cursor.fetchone() is None:
                    return False
            async with conn.execute("SELECT 1 FROM chats WHERE id = ?", (new_id,)) as cursor:
                new_exists = await cursor.fetchone() is not None
            if not new_exists:
                # ON UPDATE CASCADE carries every row that refers to the chat.
                await conn.execute(
                    "UPDATE chats SET id = ?, kind = 'supergroup' WHERE id = ?", (new_id, old_id)
                )
                return True
            # The new chat was seen first (someone wrote there already): keep the old chat's
            # settings where the new one has none, re-point its rows and rebuild its scores.
            await conn.execute(
                "UPDATE chats SET "
                "timezone = coalesce(timezone, (SELECT timezone FROM chats WHERE id = :old)), "
                "deck_id = coalesce(deck_id, (SELECT deck_id FROM chats WHERE id = :old)) "
                "WHERE id = :new",
                {"old": old_id, "new": new_id},
            )
            for table in _CHAT_TABLES:
                await conn.execute(
                    f"UPDATE {table} SET chat_id = ? WHERE chat_id = ?", (new_id, old_id)
                )
            await conn.execute(
                "DELETE FROM period_scores WHERE chat_id IN (?, ?)", (old_id, new_id)
            )
            await conn.execute("DELETE FROM chats WHERE id = ?", (old_id,))
        return True
