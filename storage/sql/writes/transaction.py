"""The statements behind `Writes`, run on a connection whose write lock the caller holds.

Inside `SqliteStore.transaction()` they commit together; the stores also use them one at a
time under `Database.autocommit()` (each statement commits on its own there).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from bot.core.model import (
    Answer,
    Ask,
    AskDraft,
    ChatRef,
    PeriodKeys,
    Player,
    Round,
    RoundEnd,
    RoundKind,
    as_mask,
)
from storage.sql import rows
from storage.sql.conn import Conn, Variants, first_value
from storage.sql.rows import encode_order, from_ms, ms_or_none, optional_ms, to_ms
from storage.sql.writes.daily import DailyWrites
from storage.sql.writes.exams import ExamWrites
from storage.sql.writes.memory import MemoryWrites, card_from_json
from storage.sql.writes.outbox import EFFECT_FAILED as EFFECT_FAILED
from storage.sql.writes.outbox import OutboxWrites
from storage.sql.writes.reports import ReportWrites

UPSERT_CHAT = (
    "INSERT INTO chats (id, kind, title, created_at) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, "
    "title = coalesce(excluded.title, chats.title)"
)
# A user row changes only when their name does, so a repeated press writes nothing.
_UPSERT_USER = (
    "INSERT INTO users (id, first_name, last_name, username, updated_at) "
    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET "
    "first_name = excluded.first_name, last_name = excluded.last_name, "
    "username = excluded.username, updated_at = excluded.updated_at "
    "WHERE users.first_name IS DISTINCT FROM excluded.first_name "
    "OR users.last_name IS DISTINCT FROM excluded.last_name "
    "OR users.username IS DISTINCT FROM excluded.username"
)
# RETURNING hands back the learner's card of the question in the same round trip (a JSON
# array, or NULL without a card): the memory update costs the answer path no extra read.
_INSERT_ANSWER = (
    "INSERT INTO answers (ask_id, user_id, chat_id, position, correct, answered_at, "
    "week_start, month_start, picked) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?11) "
    "ON CONFLICT (ask_id, user_id) DO NOTHING RETURNING "
    "(SELECT {array}(due, stability, difficulty, state, last_review, reviews, lapses) "
    "FROM cards WHERE user_id = ?2 AND deck_id = ?9 AND question_id = ?10) AS card"
)
_INSERT_ANSWER_SQL = Variants(
    _INSERT_ANSWER.format(array="json_array"), _INSERT_ANSWER.format(array="json_build_array")
)
_CLOSE_ASK = "UPDATE asks SET closed_at = ? WHERE id = ? AND closed_at IS NULL"
ROUND_ASKED = "SELECT count(*) AS n FROM asks WHERE round_id = ?"
# Served by the partial index asks_open_quiz.
OPEN_QUIZ_ASK = (
    f"SELECT {rows.ASK_COLUMNS} FROM asks "
    "WHERE chat_id = ? AND thread_id IS NOT DISTINCT FROM ? AND closed_at IS NULL "
    "AND origin = 'quiz' "
    "AND (closes_at IS NULL OR closes_at > ?) ORDER BY id DESC LIMIT 1"
)


_ENSURE_CHAT = (
    "INSERT INTO chats (id, kind, title, created_at) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (id) DO NOTHING"
)


class SqlWrites(OutboxWrites, DailyWrites, ReportWrites, MemoryWrites, ExamWrites):
    """`Writes` on one connection; every method is one or a few statements, no BEGIN/COMMIT."""

    def __init__(self, conn: Conn) -> None:
        self._conn = conn
        # What to do once the transaction has committed (`after_commit`).
        self._after_commit: list[Callable[[], None]] = []

    def committed(self) -> list[Callable[[], None]]:
        """The callbacks for after the commit, taken (the transaction's runner calls them)."""
        callbacks, self._after_commit = self._after_commit, []
        return callbacks

    async def _run(self, sql: str, params: tuple[object, ...]) -> int:
        return await self._conn.execute(sql, params)

    async def upsert_chat(self, chat: ChatRef, now: datetime) -> None:
        await self._run(UPSERT_CHAT, (chat.id, chat.kind.value, chat.title, to_ms(now)))

    async def ensure_chat(self, chat: ChatRef, now: datetime) -> None:
        await self._conn.execute(_ENSURE_CHAT, (chat.id, chat.kind.value, chat.title, to_ms(now)))

    async def create_ask(self, draft: AskDraft) -> Ask:
        asked_at, closes_at = to_ms(draft.asked_at), ms_or_none(draft.closes_at)
        ask_id = await first_value(
            self._conn,
            "INSERT INTO asks (chat_id, thread_id, deck_id, question_id, pass_no, option_order, "
            "asked_at, closes_at, round_id, origin, question_hash, picks) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
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
                draft.picks,
            ),
        )
        # Through the same conversions as an ask read back, without a round trip.
        return Ask(
            id=int(ask_id),
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
            picks=draft.picks,
        )

    async def close_ask(self, ask_id: int, now: datetime) -> bool:
        return await self._run(_CLOSE_ASK, (to_ms(now), ask_id)) == 1

    async def set_ask_message(
        self, ask_id: int, message_id: int, posted_at: datetime | None = None
    ) -> None:
        await self._run(
            "UPDATE asks SET message_id = ?, posted_at = coalesce(?, posted_at) WHERE id = ?",
            (message_id, ms_or_none(posted_at), ask_id),
        )

    async def extend_ask(self, ask_id: int, closes_at: datetime) -> None:
        await self._run(
            "UPDATE asks SET closes_at = ? WHERE id = ? AND closed_at IS NULL",
            (to_ms(closes_at), ask_id),
        )

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
        round_id = await first_value(
            self._conn,
            "INSERT INTO rounds (chat_id, thread_id, started_by, size, started_at, kind, topic) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
            (chat_id, thread_id, started_by, size, at, kind.value, topic),
        )
        if round_id is None:
            return None
        return Round(
            int(round_id),
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
        row = await self._conn.fetch_one(OPEN_QUIZ_ASK, (chat_id, thread_id, to_ms(now)))
        return None if row is None else rows.ask(row)

    async def round_asked(self, round_id: int) -> int:
        """How many questions the round has asked, read inside the transaction."""
        row = await self._conn.fetch_one(ROUND_ASKED, (round_id,))
        return int(row["n"]) if row else 0

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
        picked: frozenset[int] | None = None,
    ) -> Answer | None:
        """The player's first answer to the ask, or None (nothing written) if they had one.

        `periods` are the week and month `now` falls in, in the chat's time zone; the trigger
        on `answers` adds the answer to the chat's boards.
        """
        at = to_ms(now)
        await self._run(
            _UPSERT_USER, (player.id, player.first_name, player.last_name, player.username, at)
        )
        inserted = await self._conn.fetch_one(
            _INSERT_ANSWER_SQL,
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
                None if picked is None else as_mask(picked),
            ),
        )
        if inserted is None:
            return None
        if close:
            await self._run(_CLOSE_ASK, (at, ask.id))
        card = card_from_json(player.id, ask.deck_id, ask.question_id, inserted[0])
        return Answer(ask.id, player.id, position, correct, from_ms(at), card, picked)
