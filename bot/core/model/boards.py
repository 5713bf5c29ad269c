"""Leaderboards: periods and the rows a board is ranked from."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum

from bot.core.model.chats import Player

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class PeriodKind(StrEnum):
    WEEK = "week"
    MONTH = "month"
    ALL = "all"


@dataclass(frozen=True)
class PeriodKeys:
    """The starts (aware, UTC) of the week and the month an answer falls in."""

    week_start: datetime
    month_start: datetime

    def start(self, kind: PeriodKind) -> datetime:
        if kind is PeriodKind.WEEK:
            return self.week_start
        if kind is PeriodKind.MONTH:
            return self.month_start
        return EPOCH


@dataclass(frozen=True)
class BoardRow:
    """A user's line on a leaderboard, before ranking."""

    player: Player
    correct: int
    answered: int
    reached_at: datetime | None  # their last correct answer in the period


@dataclass(frozen=True)
class BoardStanding:
    """One user's line with how many lines are strictly ahead of it, and their streaks."""

    row: BoardRow
    ahead: int
    streak: int
    best_streak: int
