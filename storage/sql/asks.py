"""Asks (one question sent to one chat) and their answers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from bot.core.model import (
    Answer,
    Ask,
    Card,
    PassState,
    PeriodKeys,
    Player,
    Tally,
    UserStats,
    from_mask,
)
from storage.sql import rows
from storage.sql.base import StoreBase
from storage.sql.rows import from_ms, to_ms
from storage.sql.writes import OPEN_QUIZ_ASK

_ASKED = ", ".join(f"k.{column.strip()}" for column in rows.ASK_COLUMNS.split(","))
_ANSWERED_AFTER = (
    f"SELECT {_ASKED}, n.last FROM (SELECT ask_id, max(id) AS last FROM "
    "(SELECT ask_id, id FROM answers WHERE id > ? ORDER BY id LIMIT ?) AS fresh "
    "GROUP BY ask_id) AS n JOIN asks AS k ON k.id = n.ask_id"
)


class AskQueries(StoreBase):
    async def pass_state(self, chat_id: int, deck_id: str) -> PassState:
        found = await self._db.fetch_all(
            "SELECT pass_no, question_id FROM asks WHERE chat_id = ?1 AND deck_id = ?2 "
            "AND pass_no = (SELECT max(pass_no) FROM asks WHERE chat_id = ?1 AND deck_id = ?2) "
            "ORDER BY id DESC",
            (chat_id, deck_id),
        )
        if not found:
            return PassState(1, frozenset(), None)
        return PassState(
            pass_no=int(found[0]["pass_no"]),
            asked=frozenset(row["question_id"] for row in found),
            last_asked=found[0]["question_id"],
        )

    async def get_ask(self, ask_id: int) -> Ask | None:
        row = await self._db.fetch_one(
            f"SELECT {rows.ASK_COLUMNS} FROM asks WHERE id = ?", (ask_id,)
        )
        return None if row is None else rows.ask(row)

    async def open_quiz_ask(self, chat_id: int, thread_id: int | None, now: datetime) -> Ask | None:
        """The newest open `/quiz` question (not a round's or a daily one) in the chat's
        thread (`None`: outside forum topics), if any."""
        row = await self._db.fetch_one(OPEN_QUIZ_ASK, (chat_id, thread_id, to_ms(now)))
        return None if row is None else rows.ask(row)

    async def get_answer(self, ask_id: int, user_id: int) -> Answer | None:
        row = await self._db.fetch_one(
            "SELECT position, correct, answered_at, picked FROM answers "
            "WHERE ask_id = ? AND user_id = ?",
            (ask_id, user_id),
        )
        if row is None:
            return None
        picked = None if row["picked"] is None else from_mask(row["picked"])
        answered_at = from_ms(row["answered_at"])
        return Answer(
            ask_id, user_id, row["position"], bool(row["correct"]), answered_at, picked=picked
        )

    async def record_answer(
        self,
        ask: Ask,
        player: Player,
        position: int,
        correct: bool,
        now: datetime,
        *,
        periods: PeriodKeys,
        review: Callable[[Card | None], Card | None] | None = None,
        picked: frozenset[int] | None = None,
    ) -> Answer | None:
        """A group answer, committed on return; None when the player had answered before.

        The hot path: statements that each commit on their own under the write lock, no
        BEGIN … COMMIT around them (the answer is one INSERT; its triggers score and log it
        and it returns the learner's card). `review` turns that card into the one to save.
        """
        async with self._autocommit() as writes:
            answer = await writes.record_answer(
                ask, player, position, correct, now, close=False, periods=periods, picked=picked
            )
        if answer is None or review is None:
            return answer
        before = self._pending_card((player.id, ask.deck_id, ask.question_id))
        answer = replace(answer, card_before=before or answer.card_before)
        card = review(answer.card_before)
        if card is not None:
            self._defer_card(card)
        return answer

    async def answer_count(self, ask_id: int) -> int:
        row = await self._db.fetch_one(
            "SELECT count(*) AS n FROM answers WHERE ask_id = ?", (ask_id,)
        )
        return int(row["n"]) if row else 0

    async def tally(self, ask_id: int) -> Tally:
        row = await self._db.fetch_one(
            "SELECT count(*) AS answered, coalesce(sum(correct), 0) AS correct FROM answers "
            "WHERE ask_id = ?",
            (ask_id,),
        )
        first = await self._db.fetch_one(
            f"SELECT {rows.PLAYER_COLUMNS} FROM answers AS a JOIN users AS u ON u.id = a.user_id "
            "WHERE a.ask_id = ? AND a.correct = 1 ORDER BY a.answered_at, a.id LIMIT 1",
            (ask_id,),
        )
        assert row is not None
        return Tally(
            answered=int(row["answered"]),
            correct=int(row["correct"]),
            first_right=None if first is None else rows.player(first),
        )

    async def user_stats(self, chat_id: int, user_id: int) -> UserStats:
        row = await self._db.fetch_one(
            "SELECT count(*) AS answered, coalesce(sum(correct), 0) AS correct FROM answers "
            "WHERE chat_id = ? AND user_id = ?",
            (chat_id, user_id),
        )
        assert row is not None
        return UserStats(answered=int(row["answered"]), correct=int(row["correct"]))

    async def due_asks(self, now: datetime, limit: int) -> list[Ask]:
        """Posted open asks whose deadline has passed, oldest deadline first."""
        found = await self._db.fetch_all(
            f"SELECT {rows.ASK_COLUMNS} FROM asks WHERE closed_at IS NULL AND closes_at <= ? "
            "AND message_id IS NOT NULL "
            "ORDER BY closes_at, id LIMIT ?",
            (to_ms(now), limit),
        )
        return [rows.ask(row) for row in found]

    async def round_asks(self, round_id: int) -> list[Ask]:
        found = await self._db.fetch_all(
            f"SELECT {rows.ASK_COLUMNS} FROM asks WHERE round_id = ? ORDER BY id", (round_id,)
        )
        return [rows.ask(row) for row in found]

    async def answered_asks_after(
        self, answer_id: int | None, limit: int
    ) -> tuple[int | None, list[Ask]]:
        """Asks answered after answer `answer_id` (by the answers' ids, from their primary
        key), with the highest answer id read; None starts from the newest answer."""
        if answer_id is None:
            row = await self._db.fetch_one("SELECT max(id) AS last FROM answers")
            return (0 if row is None or row["last"] is None else int(row["last"])), []
        found = await self._db.fetch_all(_ANSWERED_AFTER, (answer_id, limit))
        last = max((int(row["last"]) for row in found), default=answer_id)
        return last, [rows.ask(row) for row in found]

    async def set_ask_message(
        self, ask_id: int, message_id: int, posted_at: datetime | None = None
    ) -> None:
        async with self._autocommit() as writes:
            await writes.set_ask_message(ask_id, message_id, posted_at)
