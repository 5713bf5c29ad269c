"""A chat's new id (group → supergroup): every chat-keyed row moves in one transaction.

Telegram reports the migration in the old group and in the new supergroup, and the bot may have
seen the supergroup first (its join, a command): then the new chat row exists already and the
two chats are merged into it.
"""

from __future__ import annotations

from datetime import datetime

from bot.core.ports import PeriodBounds
from storage.sql.boards import recount
from storage.sql.conn import Conn, Variants
from storage.sql.rows import to_ms

# Every table with a foreign key to chats(id), and how the merge treats it (tests check that
# this list and the schema agree).
CHAT_TABLES = {
    "asks": "moved",
    "answers": "moved",
    "rounds": "moved; a running round of the old chat is stopped if the new one has one",
    "effects": "moved",
    "daily_schedules": "the new chat's if it has one, else the old chat's",
    "daily_pushes": "moved, except a day the new chat has a row for (the new row is kept)",
    "period_scores": "recounted from the answers",
    "exams": "moved (exams are taken in private chats, which never migrate)",
}

_MERGE_SETTINGS = (
    "UPDATE chats SET "
    "timezone = coalesce(timezone, (SELECT timezone FROM chats WHERE id = ?1)), "
    "deck_id = coalesce(deck_id, (SELECT deck_id FROM chats WHERE id = ?1)), "
    "title = coalesce(title, (SELECT title FROM chats WHERE id = ?1)) "
    "WHERE id = ?2"
)
# One running round per chat (a partial UNIQUE index): the new chat's goes on.
_STOP_OLD_ROUND = (
    "UPDATE rounds SET ended_at = {latest}(?3, started_at), end_reason = 'stopped' "
    "WHERE chat_id = ?1 AND ended_at IS NULL "
    "AND EXISTS (SELECT 1 FROM rounds WHERE chat_id = ?2 AND ended_at IS NULL)"
)
_STOP_OLD_ROUND_SQL = Variants(
    _STOP_OLD_ROUND.format(latest="max"), _STOP_OLD_ROUND.format(latest="greatest")
)
_DROP_OLD_SCHEDULE = (
    "DELETE FROM daily_schedules WHERE chat_id = ?1 "
    "AND EXISTS (SELECT 1 FROM daily_schedules WHERE chat_id = ?2)"
)
_DROP_OLD_PUSHES = (
    "DELETE FROM daily_pushes WHERE chat_id = ?1 "
    "AND local_day IN (SELECT local_day FROM daily_pushes WHERE chat_id = ?2)"
)
_MOVED = ("asks", "answers", "rounds", "effects", "daily_schedules", "daily_pushes", "exams")


async def _exists(conn: Conn, chat_id: int) -> bool:
    return await conn.fetch_one("SELECT 1 FROM chats WHERE id = ?", (chat_id,)) is not None


async def move_chat(
    conn: Conn, old_id: int, new_id: int, bounds: PeriodBounds, now: datetime
) -> bool:
    """Move or merge `old_id` into `new_id` on `conn`, inside the caller's transaction."""
    if old_id == new_id or not await _exists(conn, old_id):
        return False
    if not await _exists(conn, new_id):
        # ON UPDATE CASCADE carries every row that refers to the chat, boards included.
        await conn.execute(
            "UPDATE chats SET id = ?, kind = 'supergroup' WHERE id = ?", (new_id, old_id)
        )
        return True
    keys = (old_id, new_id)
    await conn.execute(_MERGE_SETTINGS, keys)
    await conn.execute(_STOP_OLD_ROUND_SQL, (*keys, to_ms(now)))
    await conn.execute(_DROP_OLD_SCHEDULE, keys)
    await conn.execute(_DROP_OLD_PUSHES, keys)
    for table in _MOVED:
        await conn.execute(f"UPDATE {table} SET chat_id = ?2 WHERE chat_id = ?1", keys)
    await conn.execute("DELETE FROM period_scores WHERE chat_id = ?", (old_id,))
    await recount(conn, new_id, bounds)
    # Fails on a foreign key (and rolls everything back) if a table was left out above.
    await conn.execute("DELETE FROM chats WHERE id = ?", (old_id,))
    return True
