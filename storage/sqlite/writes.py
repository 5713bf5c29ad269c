"""The statements behind `Writes`, run on a connection whose write lock the caller holds.

Inside `SqliteStore.transaction()` they commit together; the stores also use them one at a
time under `Database.autocommit()` (each statement commits on its own there).
"""

from __future__ import annotations

from datetime import datetime

import aiosqlite

from bot.core.model import (
    Answer,
    Ask,
    AskDraft,
    ChatRef,
    Effect,
    NewEffect,
    PeriodKeys,
    Player,
    Round,
    RoundEnd,
    RoundKind,
)
from storage.sqlite import rows
from storage.sqlite.exam_writes import ExamWrites
from storage.sqlite.memory_writes import MemoryWrites, card_from_json
from storage.sqlite.report_writes import ReportWrites
from storage.sqlite.rows import encode_order, from_ms, ms_or_none, optional_ms, to_ms

UPSERT_CHAT = (
    "INSERT INTO chats (id, kind, title, created_at) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, title = coalesce(excluded.title, title)"
)
# A user row changes only when their name does, so a repeated press writes nothing.
_UPSERT_USER = (
    "INSERT INTO users (id, first_name, last_name, username, updated_at) "
    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET "
    "first_name = excluded.first_name, last_name = excluded.last_name, "
    "username = excluded.username, updated_at = excluded.updated_at "
    "WHERE (first_name, last_name, username) IS NOT "
    "(excluded.first_name, excluded.last_name, excluded.username)"
)
# RETURNING hands back the learner's card of the question in the same round trip (a JSON
# array, or NULL without a card): the memory update costs the answer path no extra read.
_INSERT_ANSWER = (
    "INSERT INTO answers (ask_id, user_id, chat_id, position, correct, answered_at, "
    "week_start, month_start) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) "
    "ON CONFLICT (ask_id, user_id) DO NOTHING RETURNING "
    "(SELECT json_array(due, stability, difficulty, state, last_review, reviews, lapses) "
    "FROM cards WHERE user_id = ?2 AND deck_id = ?9 AND question_id = ?10) AS card"
)
_CLOSE_ASK = "UPDATE asks SET closed_at = ? WHERE id = ? AND closed_at IS NULL"
ROUND_ASKED = "SELECT count(*) AS n FROM asks WHERE round_id = ?"
# Served by the partial index asks_open_quiz.
OPEN_QUIZ_ASK = (
    f"SELECT {rows.ASK_COLUMNS} FROM asks "
    "WHERE chat_id = ? AND thread_id IS ? AND closed_at IS NULL AND origin = 'quiz' "
    "AND (closes_at IS NULL OR closes_at > ?) ORDER BY id DESC LIMIT 1"
)
EFFECT_FAILED = (
    "UPDATE effects SET status = 'failed', attempts = attempts + 1, last_error = ?, "
    "done_at = ? WHERE id = ?"
)


class SqliteWrites(ReportWrites, MemoryWrites, ExamWrites):
    """`Writes` on one connection; every method is one or a few statements, no BEGIN/COMMIT."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def _run(self, sql: str, params: tuple[object, ...]) -> int:
        cursor = await self._conn.execute(sql, params)
        return cursor.rowcount

    async def upsert_chat(self, chat: ChatRef, now: datetime) -> None:
        await self._run(UPSERT_CHAT, (chat.id, chat.kind.value, chat.title, to_ms(now)))

    async def create_ask(self, draft: AskDraft) -> Ask:
        asked_at, closes_at = to_ms(draft.asked_at), ms_or_none(draft.closes_at)
        cursor = await self._conn.execute(
            "INSERT INTO asks (chat_id, thread_id, deck_id, question_id, pass_no, option_order, "
            "asked_at, closes_at, round_id, origin, question_hash) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                draft.chat_id,
                draft.thread_id,
                draft.deck_id,
                draft.question_id,
                draft.pass_no,
                encode_order(draft.option_order),
                asked_at,
                closes_at,
                draft.round_id,
                draft.origin.value,
                draft.question_hash,
            ),
        )
        assert cursor.lastrowid is not None
        # Through the same conversions as an ask read back, without a round trip.
        return Ask(
            id=cursor.lastrowid,
            chat_id=draft.chat_id,
            thread_id=draft.thread_id,
            message_id=None,
            deck_id=draft.deck_id,
            question_id=draft.question_id,
            pass_no=draft.pass_no,
            option_order=draft.option_order,
            asked_at=from_ms(asked_at),
            closes_at=optional_ms(closes_at),
            closed_at=None,
            round_id=draft.round_id,
            origin=draft.origin,
            question_hash=draft.question_hash,
        )

    async def close_ask(self, ask_id: int, now: datetime) -> bool:
        return await self._run(_CLOSE_ASK, (to_ms(now), ask_id)) == 1

    async def set_ask_message(self, ask_id: int, message_id: int) -> None:
        await self._run("UPDATE asks SET message_id = ? WHERE id = ?", (message_id, ask_id))

    async def start_round(
        self,
        chat_id: int,
        thread_id: int | None,
        started_by: int,
        size: int,
        now: datetime,
        kind: RoundKind = RoundKind.QUIZ,
        topic: str | None = None,
    ) -> Round | None:
        # The partial UNIQUE index (one running round per chat) turns a second one into a no-op.
        at = to_ms(now)
        cursor = await self._conn.execute(
            "INSERT INTO rounds (chat_id, thread_id, started_by, size, started_at, kind, topic) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (chat_id, thread_id, started_by, size, at, kind.value, topic),
        )
        if cursor.rowcount != 1 or cursor.lastrowid is None:
            return None
        return Round(
            cursor.lastrowid,
            chat_id,
            thread_id,
            started_by,
            size,
            from_ms(at),
            None,
            kind=kind,
            topic=topic,
        )

    async def end_round(self, round_id: int, reason: RoundEnd, now: datetime) -> bool:
        return (
            await self._run(
                "UPDATE rounds SET ended_at = ?, end_reason = ? WHERE id = ? AND ended_at IS NULL",
                (to_ms(now), reason.value, round_id),
            )
            == 1
        )

    async def open_quiz_ask(self, chat_id: int, thread_id: int | None, now: datetime) -> Ask | None:
        """The open `/quiz` question of the chat's thread, read inside the transaction."""
        async with self._conn.execute(OPEN_QUIZ_ASK, (chat_id, thread_id, to_ms(now))) as cursor:
            row = await cursor.fetchone()
        return None if row is None else rows.ask(row)

    async def round_asked(self, round_id: int) -> int:
        """How many questions the round has asked, read inside the transaction."""
        async with self._conn.execute(ROUND_ASKED, (round_id,)) as cursor:
            row = await cursor.fetchone()
        return int(row["n"]) if row else 0

    async def enqueue(
        self, effect: NewEffect, now: datetime, not_before: datetime | None = None
    ) -> None:
        at = to_ms(now)
        await self._run(
            "INSERT INTO effects (chat_id, thread_id, kind, ask_id, round_id, user_id, "
            "next_asked, message_id, text, report_id, exam_id, not_before, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                effect.chat_id,
                effect.thread_id,
                effect.kind.value,
                effect.ask_id,
                effect.round_id,
                effect.user_id,
                effect.next_asked,
                effect.message_id,
                effect.text,
                effect.report_id,
                effect.exam_id,
                at if not_before is None else to_ms(not_before),
                at,
            ),
        )

    async def effect_failed(self, effect: Effect, error: str, now: datetime) -> None:
        await self._run(EFFECT_FAILED, (error, to_ms(now), effect.id))

    async def record_answer(
        self,
        ask: Ask,
        player: Player,
        position: int,
        correct: bool,
        now: datetime,
        *,
        close: bool,
        periods: PeriodKeys,
    ) -> Answer | None:
        """The player's first answer to the ask, or None (nothing written) if they had one.

        `periods` are the week and month `now` falls in, in the chat's time zone; the trigger
        on `answers` adds the answer to the chat's boards.
        """
        at = to_ms(now)
        await self._run(
            _UPSERT_USER, (player.id, player.first_name, player.last_name, player.username, at)
        )
        inserted = await self._conn.execute_fetchall(
            _INSERT_ANSWER,
            (
                ask.id,
                player.id,
                ask.chat_id,
                position,
                int(correct),
                at,
                to_ms(periods.week_start),
                to_ms(periods.month_start),
                ask.deck_id,
                ask.question_id,
            ),
        )
        if not inserted:
            return None
        if close:
            await self._run(_CLOSE_ASK, (at, ask.id))
        card = card_from_json(player.id, ask.deck_id, ask.question_id, next(iter(inserted))[0])
        return Answer(ask.id, player.id, position, correct, from_ms(at), card)
