"""Leaderboards read from `period_scores`, which a trigger on `answers` keeps current."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.core.model import BoardRow, BoardStanding, PeriodKind
from bot.core.ports import PeriodBounds
from storage.sql import rows
from storage.sql.base import StoreBase
from storage.sql.conn import Conn, Row, Variants
from storage.sql.rows import from_ms, optional_ms, to_ms

REBUILD_BATCH = 5000

_BOARD_COLUMNS = f"{rows.PLAYER_COLUMNS}, s.correct, s.answered, s.reached_at"

# Accuracy as a float orders correctly: two fractions with denominators below 2**26 are
# equal exactly when their doubles are.
# SQLite's CROSS JOIN keeps the tables in this order (scores first, from their index); in
# PostgreSQL that is a syntax error with ON, and its planner needs no hint.
_SCORES_THEN_USERS = Variants(
    "period_scores AS s CROSS JOIN users AS u ON u.id = s.user_id",
    "period_scores AS s JOIN users AS u ON u.id = s.user_id",
)


# Accuracy as a double on both engines (in PostgreSQL `1.0` is an exact numeric: slow, and
# not the float the ordering is reasoned about with).
ACCURACY = Variants("s.correct * 1.0 / s.answered", "s.correct::float8 / s.answered")


def _both(template: str) -> Variants:
    return Variants(
        template.format(scores=_SCORES_THEN_USERS.sqlite, accuracy=ACCURACY.sqlite),
        template.format(scores=_SCORES_THEN_USERS.postgres, accuracy=ACCURACY.postgres),
    )


TOP = _both(
    f"SELECT {_BOARD_COLUMNS} FROM {{scores}} "
    "WHERE s.chat_id = ? AND s.period = ? AND s.period_start = ? "
    "ORDER BY s.correct DESC, {accuracy} DESC, s.reached_at NULLS LAST, "
    "s.user_id LIMIT ?"
)

# One user's row and how many rows are strictly better; ties (decided exactly, by
# cross-multiplying) are not counted, so their rank is `ahead + 1`.
STANDING = _both(
    f"SELECT {_BOARD_COLUMNS}, s.streak, s.best_streak, ("
    " SELECT count(*) FROM period_scores AS b"
    " WHERE b.chat_id = s.chat_id AND b.period = s.period AND b.period_start = s.period_start"
    " AND b.correct >= s.correct AND (b.correct > s.correct"
    "  OR b.correct * s.answered > s.correct * b.answered"
    "  OR (b.correct * s.answered = s.correct * b.answered AND b.reached_at < s.reached_at))"
    ") AS ahead FROM {scores} "
    "WHERE s.chat_id = ? AND s.period = ? AND s.period_start = ? AND s.user_id = ?"
)


def _row(row: Row) -> BoardRow:
    return BoardRow(
        player=rows.player(row),
        correct=row["correct"],
        answered=row["answered"],
        reached_at=optional_ms(row["reached_at"]),
    )


def start_key(kind: PeriodKind, start: datetime) -> int:
    """`period_start` as stored: the period's start in ms, 0 for all time."""
    return 0 if kind is PeriodKind.ALL else to_ms(start)


class BoardQueries(StoreBase):
    async def top(
        self, chat_id: int, kind: PeriodKind, start: datetime, limit: int
    ) -> list[BoardRow]:
        """Best first: correct answers, then accuracy, then who reached their count first."""
        found = await self._db.fetch_all(TOP, (chat_id, kind.value, start_key(kind, start), limit))
        return [_row(row) for row in found]

    async def standing(
        self, chat_id: int, kind: PeriodKind, start: datetime, user_id: int
    ) -> BoardStanding | None:
        row = await self._db.fetch_one(
            STANDING, (chat_id, kind.value, start_key(kind, start), user_id)
        )
        if row is None:
            return None
        return BoardStanding(_row(row), row["ahead"], row["streak"], row["best_streak"])

    async def rebuild_chat(self, chat_id: int, bounds: PeriodBounds) -> None:
        """Move the chat's answers to the periods of `bounds` and recount its boards, in one
        transaction (readers never see a half)."""
        async with self._db.transaction() as conn:
            await recount(conn, chat_id, bounds)


@dataclass
class _Score:
    correct: int = 0
    answered: int = 0
    reached_at: int | None = None
    streak: int = 0
    best_streak: int = 0

    def add(self, correct: int, at: int) -> None:
        self.correct += correct
        self.answered += 1
        if correct:
            self.reached_at = at if self.reached_at is None else max(self.reached_at, at)
            self.streak += 1
            self.best_streak = max(self.best_streak, self.streak)
        else:
            self.streak = 0


@dataclass
class _Period:
    """The period the previous answer fell in, so that most answers need no `bounds` call."""

    kind: PeriodKind
    bounds: PeriodBounds
    start: int = 0
    end: int = -1

    def start_of(self, at: int) -> int:
        if not self.start <= at < self.end:
            begin, end = self.bounds(self.kind, from_ms(at))
            self.start, self.end = to_ms(begin), to_ms(end)
        return self.start


async def recount(conn: Conn, chat_id: int, bounds: PeriodBounds) -> None:
    """Rewrite the chat's answers' periods and `period_scores` from its answers, on `conn`
    inside the caller's transaction."""
    weeks = _Period(PeriodKind.WEEK, bounds)
    months = _Period(PeriodKind.MONTH, bounds)
    scores: dict[tuple[str, int, int], _Score] = {}
    after = (-1, -1)
    while True:
        # Pages in answer order by (answered_at, id), so streaks follow the answers.
        page = await conn.fetch_all(
            "SELECT id, user_id, correct, answered_at, week_start, month_start "
            "FROM answers WHERE chat_id = ? AND (answered_at, id) > (?, ?) "
            "ORDER BY answered_at, id LIMIT ?",
            (chat_id, *after, REBUILD_BATCH),
        )
        if not page:
            break
        moved = []
        for row in page:
            at, user_id, correct = row["answered_at"], row["user_id"], row["correct"]
            week, month = weeks.start_of(at), months.start_of(at)
            if (week, month) != (row["week_start"], row["month_start"]):
                moved.append((week, month, row["id"]))
            for key in (("week", week, user_id), ("month", month, user_id), ("all", 0, user_id)):
                scores.setdefault(key, _Score()).add(correct, at)
        await conn.executemany(
            "UPDATE answers SET week_start = ?, month_start = ? WHERE id = ?", moved
        )
        after = (page[-1]["answered_at"], page[-1]["id"])
    await conn.execute("DELETE FROM period_scores WHERE chat_id = ?", (chat_id,))
    await conn.executemany(
        "INSERT INTO period_scores (chat_id, period, period_start, user_id, correct, "
        "answered, reached_at, streak, best_streak) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            (chat_id, period, start, user_id, s.correct, s.answered, s.reached_at)
            + ((s.streak, s.best_streak) if period == "all" else (0, 0))
            for (period, start, user_id), s in scores.items()
        ),
    )
