"""Per-chat leaderboards read from `period_scores`, which a trigger on `answers` keeps current."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import aiosqlite

from bot.core.leaderboard import (
    Leaderboard,
    LeaderboardEntry,
    PlayerSummary,
    Standing,
    competition_ranks,
)
from bot.core.periods import PeriodKind, period_range
from storage.db import Database
from storage.repository import from_ms, to_ms

REBUILD_BATCH = 5000

# Accuracy as a float orders correctly: two fractions with denominators below 2**26 are
# equal exactly when their doubles are. Ties are decided exactly, by cross-multiplying.
_TOP = (
    "SELECT s.user_id, u.first_name, u.last_name, u.username, s.correct, s.answered, "
    "s.reached_at FROM period_scores AS s CROSS JOIN users AS u ON u.id = s.user_id "
    "WHERE s.chat_id = ? AND s.period = ? AND s.period_start = ? "
    "ORDER BY s.correct DESC, s.correct * 1.0 / s.answered DESC, s.reached_at NULLS LAST, "
    "s.user_id LIMIT ?"
)

# One user's row and how many rows are strictly better (their rank is that plus one).
_STANDING = (
    "SELECT v.user_id, u.first_name, u.last_name, u.username, v.correct, v.answered, "
    "v.reached_at, v.streak, v.best_streak, ("
    " SELECT count(*) FROM period_scores AS b"
    " WHERE b.chat_id = v.chat_id AND b.period = v.period AND b.period_start = v.period_start"
    " AND b.correct >= v.correct AND (b.correct > v.correct"
    "  OR b.correct * v.answered > v.correct * b.answered"
    "  OR (b.correct * v.answered = v.correct * b.answered AND b.reached_at < v.reached_at))"
    ") FROM period_scores AS v CROSS JOIN users AS u ON u.id = v.user_id "
    "WHERE v.chat_id = ? AND v.period = ? AND v.period_start = ? AND v.user_id = ?"
)


def _entry(rank: int, row: aiosqlite.Row) -> LeaderboardEntry:
    return LeaderboardEntry(
        rank=rank,
        user_id=row[0],
        first_name=row[1],
        last_name=row[2],
        username=row[3],
        correct=row[4],
        answered=row[5],
        reached_at=None if row[6] is None else from_ms(row[6]),
    )


def _start_ms(kind: PeriodKind, start: datetime) -> int:
    return 0 if kind is PeriodKind.ALL else to_ms(start)


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
class _Bounds:
    """The period the previous answer fell in, so that most answers need no zone lookup."""

    kind: PeriodKind
    zone: ZoneInfo
    start: int = 0
    end: int = -1

    def start_of(self, at: int) -> int:
        if not self.start <= at < self.end:
            begin, end = period_range(self.kind, from_ms(at), self.zone)
            self.start, self.end = to_ms(begin), to_ms(end)
        return self.start


class LeaderboardRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def chat_zone(self, chat_id: int, default: ZoneInfo) -> ZoneInfo:
        """The chat's time zone, or `default` when it has none (or an unknown one)."""
        row = await self.db.fetch_one("SELECT timezone FROM chats WHERE id = ?", (chat_id,))
        if row is None or not row[0]:
            return default
        try:
            return ZoneInfo(row[0])
        except (ZoneInfoNotFoundError, ValueError):
            return default

    async def top(
        self,
        chat_id: int,
        kind: PeriodKind,
        start: datetime,
        *,
        limit: int = 10,
        viewer_id: int | None = None,
    ) -> Leaderboard:
        """The best `limit` users of the period starting at `start` (ignored for all time).

        The viewer's own line is added when they have answered in the period but are not
        among the entries shown.
        """
        key = (chat_id, kind.value, _start_ms(kind, start))
        rows = await self.db.fetch_all(_TOP, (*key, limit))
        ranks = competition_ranks([Standing(r[4], r[5], r[6]) for r in rows])
        entries = [_entry(rank, row) for rank, row in zip(ranks, rows, strict=True)]
        viewer = None
        if viewer_id is not None and all(e.user_id != viewer_id for e in entries):
            mine = await self.db.fetch_one(_STANDING, (*key, viewer_id))
            if mine is not None:
                viewer = _entry(mine[9] + 1, mine)
        return Leaderboard(entries, viewer)

    async def player_summary(
        self, chat_id: int, user_id: int, week_start: datetime
    ) -> PlayerSummary | None:
        """The user's all-time points and streaks here with their ranks; None if no answers."""
        overall = await self.db.fetch_one(_STANDING, (chat_id, PeriodKind.ALL.value, 0, user_id))
        if overall is None:
            return None
        week = await self.db.fetch_one(
            _STANDING, (chat_id, PeriodKind.WEEK.value, to_ms(week_start), user_id)
        )
        return PlayerSummary(
            points=overall[4],
            answered=overall[5],
            streak=overall[7],
            best_streak=overall[8],
            week_rank=None if week is None else week[9] + 1,
            all_rank=overall[9] + 1,
        )

    async def rebuild_chat(self, chat_id: int, zone: ZoneInfo) -> None:
        """Move the chat's answers to the weeks and months of `zone` and recount its boards.

        For when a chat changes its time zone; one transaction, so readers never see a half.
        """
        weeks = _Bounds(PeriodKind.WEEK, zone)
        months = _Bounds(PeriodKind.MONTH, zone)
        scores: dict[tuple[str, int, int], _Score] = {}
        async with self.db.transaction() as conn:
            after = (-1, -1)
            while True:
                # Pages in answer order by (answered_at, id), so streaks follow the answers.
                async with conn.execute(
                    "SELECT id, user_id, correct, answered_at, week_start, month_start "
                    "FROM answers WHERE chat_id = ? AND (answered_at, id) > (?, ?) "
                    "ORDER BY answered_at, id LIMIT ?",
                    (chat_id, *after, REBUILD_BATCH),
                ) as cursor:
                    rows = list(await cursor.fetchall())
                if not rows:
                    break
                moved = []
                for answer_id, user_id, correct, at, old_week, old_month in rows:
                    week, month = weeks.start_of(at), months.start_of(at)
                    if (week, month) != (old_week, old_month):
                        moved.append((week, month, answer_id))
                    for key in (("week", week, user_id), ("month", month, user_id)):
                        scores.setdefault(key, _Score()).add(correct, at)
                    scores.setdefault(("all", 0, user_id), _Score()).add(correct, at)
                await conn.executemany(
                    "UPDATE answers SET week_start = ?, month_start = ? WHERE id = ?", moved
                )
                after = (rows[-1][3], rows[-1][0])
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
