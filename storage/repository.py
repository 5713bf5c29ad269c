"""Reads and writes of chats, users, asks and answers, returning domain types."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import aiosqlite

from bot.core.domain import Answer, Ask, ChatRef, PassState, Player, Tally, UserStats
from bot.core.periods import PeriodKeys
from storage.db import Database


def to_ms(moment: datetime) -> int:
    """A timezone-aware datetime as integer milliseconds since the epoch (UTC)."""
    if moment.tzinfo is None:
        raise ValueError("naive datetimes are ambiguous; pass an aware UTC datetime")
    return int(moment.timestamp() * 1000)


def from_ms(value: int) -> datetime:
    return datetime.fromtimestamp(value / 1000, tz=UTC)


def _optional_ms(value: int | None) -> datetime | None:
    return None if value is None else from_ms(value)


_ASK_COLUMNS = (
    "id, chat_id, thread_id, message_id, deck_id, question_id, pass_no, option_order, "
    "asked_at, closes_at, closed_at, round_id"
)


def _ask(row: aiosqlite.Row) -> Ask:
    return Ask(
        id=row[0],
        chat_id=row[1],
        thread_id=row[2],
        message_id=row[3],
        deck_id=row[4],
        question_id=row[5],
        pass_no=row[6],
        option_order=tuple(int(part) for part in row[7].split(",")),
        asked_at=from_ms(row[8]),
        closes_at=_optional_ms(row[9]),
        closed_at=_optional_ms(row[10]),
        round_id=row[11],
    )


@dataclass(frozen=True)
class RecordedAnswer:
    """The answer on record for a user and an ask; `is_new` is False when it was there before."""

    answer: Answer
    is_new: bool


class Repository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def upsert_chat(self, chat: ChatRef, now: datetime) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO chats (id, kind, title, created_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, "
                "title = coalesce(excluded.title, title)",
                (chat.id, chat.kind.value, chat.title, to_ms(now)),
            )

    async def pass_state(self, chat_id: int, deck_id: str) -> PassState:
        rows = await self.db.fetch_all(
            "SELECT pass_no, question_id FROM asks WHERE chat_id = ?1 AND deck_id = ?2 "
            "AND pass_no = (SELECT max(pass_no) FROM asks WHERE chat_id = ?1 AND deck_id = ?2) "
            "ORDER BY id DESC",
            (chat_id, deck_id),
        )
        if not rows:
            return PassState(1, frozenset(), None)
        return PassState(int(rows[0][0]), frozenset(r[1] for r in rows), rows[0][1])

    async def create_ask(
        self,
        *,
        chat_id: int,
        thread_id: int | None,
        deck_id: str,
        question_id: str,
        pass_no: int,
        option_order: tuple[int, ...],
        asked_at: datetime,
        closes_at: datetime | None,
        round_id: int | None = None,
    ) -> Ask:
        async with self.db.autocommit() as conn:
            cursor = await conn.execute(
                "INSERT INTO asks (chat_id, thread_id, deck_id, question_id, pass_no, "
                "option_order, asked_at, closes_at, round_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    chat_id,
                    thread_id,
                    deck_id,
                    question_id,
                    pass_no,
                    ",".join(map(str, option_order)),
                    to_ms(asked_at),
                    None if closes_at is None else to_ms(closes_at),
                    round_id,
                ),
            )
        assert cursor.lastrowid is not None
        # Read back through the same conversions as every other ask, without a round trip.
        return Ask(
            id=cursor.lastrowid,
            chat_id=chat_id,
            thread_id=thread_id,
            message_id=None,
            deck_id=deck_id,
            question_id=question_id,
            pass_no=pass_no,
            option_order=option_order,
            asked_at=from_ms(to_ms(asked_at)),
            closes_at=None if closes_at is None else from_ms(to_ms(closes_at)),
            closed_at=None,
            round_id=round_id,
        )

    async def set_ask_message(self, ask_id: int, message_id: int) -> None:
        async with self.db.transaction() as conn:
            await conn.execute("UPDATE asks SET message_id = ? WHERE id = ?", (message_id, ask_id))

    async def delete_ask(self, ask_id: int) -> None:
        """Forget an ask whose message could not be sent (it has no answers)."""
        async with self.db.transaction() as conn:
            await conn.execute("DELETE FROM asks WHERE id = ?", (ask_id,))

    async def get_ask(self, ask_id: int) -> Ask | None:
        row = await self.db.fetch_one(f"SELECT {_ASK_COLUMNS} FROM asks WHERE id = ?", (ask_id,))
        return None if row is None else _ask(row)

    async def get_answer(self, ask_id: int, user_id: int) -> Answer | None:
        row = await self.db.fetch_one(
            "SELECT position, correct, answered_at FROM answers WHERE ask_id = ? AND user_id = ?",
            (ask_id, user_id),
        )
        if row is None:
            return None
        return Answer(ask_id, user_id, row[0], bool(row[1]), from_ms(row[2]))

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
    ) -> RecordedAnswer:
        """Store the player's answer unless they already have one for this ask.

        With `close`, the ask is closed right after (a private question takes one
        answer). `periods` are the week and month `now` falls in, in the chat's time zone; a
        trigger adds the answer to the chat's leaderboards. The answer is committed when this
        returns.
        """
        at = to_ms(now)
        async with self.db.autocommit() as conn:
            # A user row changes only when their name does, so a repeated press writes nothing.
            await conn.execute(
                "INSERT INTO users (id, first_name, last_name, username, updated_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET "
                "first_name = excluded.first_name, last_name = excluded.last_name, "
                "username = excluded.username, updated_at = excluded.updated_at "
                "WHERE (first_name, last_name, username) IS NOT "
                "(excluded.first_name, excluded.last_name, excluded.username)",
                (player.id, player.first_name, player.last_name, player.username, at),
            )
            cursor = await conn.execute(
                "INSERT INTO answers (ask_id, user_id, chat_id, position, correct, answered_at, "
                "week_start, month_start) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (ask_id, user_id) DO NOTHING",
                (
                    ask.id,
                    player.id,
                    ask.chat_id,
                    position,
                    int(correct),
                    at,
                    to_ms(periods.week_start),
                    to_ms(periods.month_start),
                ),
            )
            is_new = cursor.rowcount == 1
            if is_new and close:
                await conn.execute(
                    "UPDATE asks SET closed_at = ? WHERE id = ? AND closed_at IS NULL", (at, ask.id)
                )
        if is_new:
            return RecordedAnswer(Answer(ask.id, player.id, position, correct, now), True)
        existing = await self.get_answer(ask.id, player.id)
        assert existing is not None
        return RecordedAnswer(existing, False)

    async def user_stats(self, chat_id: int, user_id: int) -> UserStats:
        row = await self.db.fetch_one(
            "SELECT count(*), coalesce(sum(correct), 0) FROM answers "
            "WHERE chat_id = ? AND user_id = ?",
            (chat_id, user_id),
        )
        assert row is not None
        return UserStats(answered=int(row[0]), correct=int(row[1]))

    async def due_asks(self, now: datetime) -> list[Ask]:
        """Open asks whose deadline has passed, oldest deadline first."""
        rows = await self.db.fetch_all(
            f"SELECT {_ASK_COLUMNS} FROM asks WHERE closed_at IS NULL AND closes_at <= ? "
            "ORDER BY closes_at",
            (to_ms(now),),
        )
        return [_ask(row) for row in rows]

    async def close_ask(self, ask_id: int, now: datetime) -> bool:
        """Close the ask; False when it was closed already (someone else closed it first)."""
        async with self.db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE asks SET closed_at = ? WHERE id = ? AND closed_at IS NULL",
                (to_ms(now), ask_id),
            )
            return cursor.rowcount == 1

    async def answer_count(self, ask_id: int) -> int:
        row = await self.db.fetch_one("SELECT count(*) FROM answers WHERE ask_id = ?", (ask_id,))
        return int(row[0]) if row else 0

    async def tally(self, ask_id: int) -> Tally:
        row = await self.db.fetch_one(
            "SELECT count(*), coalesce(sum(correct), 0) FROM answers WHERE ask_id = ?", (ask_id,)
        )
        first = await self.db.fetch_one(
            "SELECT u.id, u.first_name, u.last_name, u.username FROM answers AS a "
            "JOIN users AS u ON u.id = a.user_id WHERE a.ask_id = ? AND a.correct = 1 "
            "ORDER BY a.answered_at, a.id LIMIT 1",
            (ask_id,),
        )
        assert row is not None
        first_right = None if first is None else Player(first[0], first[1], first[2], first[3])
        return Tally(answered=int(row[0]), correct=int(row[1]), first_right=first_right)

    async def round_asks(self, round_id: int) -> list[Ask]:
        rows = await self.db.fetch_all(
            f"SELECT {_ASK_COLUMNS} FROM asks WHERE round_id = ? ORDER BY id", (round_id,)
        )
        return [_ask(row) for row in rows]
