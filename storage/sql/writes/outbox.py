"""The outbox's writes inside a transaction: owing messages and settling them."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import datetime

from bot.core.model import Effect, NewEffect
from storage.sql import rows
from storage.sql.conn import Conn
from storage.sql.rows import to_ms

_INSERT = (
    "INSERT INTO effects (chat_id, thread_id, kind, ask_id, round_id, user_id, next_asked, "
    "message_id, text, report_id, exam_id, payload, bulk, dedupe_key, not_before, created_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (dedupe_key) DO NOTHING"
)
EFFECT_FAILED = (
    "UPDATE effects SET status = 'failed', attempts = attempts + 1, last_error = ?, "
    "done_at = ? WHERE id = ?"
)


def _params(effect: NewEffect, at: int, not_before: int) -> tuple[object, ...]:
    payload = json.dumps(dict(effect.payload), separators=(",", ":")) if effect.payload else None
    return (
        effect.chat_id,
        effect.thread_id,
        effect.kind,
        effect.ask_id,
        effect.round_id,
        effect.user_id,
        effect.next_asked,
        effect.message_id,
        effect.text,
        effect.report_id,
        effect.exam_id,
        payload,
        int(effect.bulk),
        effect.dedupe_key,
        not_before,
        at,
    )


class OutboxWrites:
    _conn: Conn
    _after_commit: list[Callable[[], None]]

    async def enqueue(
        self, effect: NewEffect, now: datetime, not_before: datetime | None = None
    ) -> bool:
        at = to_ms(now)
        due = at if not_before is None else to_ms(not_before)
        return await self._conn.execute(_INSERT, _params(effect, at, due)) == 1

    async def enqueue_many(self, effects: Sequence[NewEffect], now: datetime) -> None:
        at = to_ms(now)
        await self._conn.executemany(_INSERT, [_params(effect, at, at) for effect in effects])

    async def effect_done(self, effect: Effect, now: datetime) -> None:
        await self._conn.execute(
            "UPDATE effects SET status = 'done', attempts = attempts + 1, done_at = ? "
            "WHERE id = ? AND status = 'pending'",
            (to_ms(now), effect.id),
        )

    async def effect_retry(self, effect: Effect, error: str, not_before: datetime) -> None:
        await self._conn.execute(
            "UPDATE effects SET attempts = attempts + 1, last_error = ?, not_before = ? "
            "WHERE id = ?",
            (error, to_ms(not_before), effect.id),
        )

    async def effect_failed(self, effect: Effect, error: str, now: datetime) -> None:
        await self._conn.execute(EFFECT_FAILED, (error, to_ms(now), effect.id))

    async def drop_chat_effects(self, chat_id: int, error: str, now: datetime) -> list[Effect]:
        dropped = await self._conn.fetch_all(
            "UPDATE effects SET status = 'failed', last_error = ?, done_at = ? "
            f"WHERE chat_id = ? AND status = 'pending' RETURNING {rows.EFFECT_COLUMNS}",
            (error, to_ms(now), chat_id),
        )
        return [rows.effect(row) for row in dropped]

    def after_commit(self, callback: Callable[[], None]) -> None:
        self._after_commit.append(callback)
