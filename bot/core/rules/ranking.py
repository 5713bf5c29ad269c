"""Leaderboard rows and their order: correct answers, then accuracy, then who got there first."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.core.model import BoardRow, full_name


@dataclass(frozen=True)
class LeaderboardEntry:
    """One user's line on a board; `reached_at` is their last correct answer in the period."""

    rank: int
    user_id: int
    first_name: str
    last_name: str | None
    username: str | None
    correct: int
    answered: int
    reached_at: datetime | None

    @property
    def accuracy(self) -> float:
        return self.correct / self.answered if self.answered else 0.0

    @property
    def display_name(self) -> str:
        return full_name(self.first_name, self.last_name)


@dataclass(frozen=True)
class Leaderboard:
    """The top entries, and the viewer's own line when they have one but are not in the top."""

    entries: list[LeaderboardEntry]
    viewer: LeaderboardEntry | None = None


@dataclass(frozen=True)
class PlayerSummary:
    """What `/me` shows: all-time points (correct answers) and streaks, and ranks in the chat."""

    points: int
    answered: int
    streak: int
    best_streak: int
    week_rank: int | None
    all_rank: int | None

    @property
    def accuracy(self) -> float:
        return self.points / self.answered if self.answered else 0.0


@dataclass(frozen=True)
class Standing:
    """The fields a rank is decided on."""

    correct: int
    answered: int
    reached_at: int | None

    def ties(self, other: Standing) -> bool:
        # Accuracy compared by cross-multiplying, so that 1/2 and 2/4 tie exactly.
        return (
            self.correct == other.correct
            and self.correct * other.answered == other.correct * self.answered
            and self.reached_at == other.reached_at
        )


def competition_ranks(ordered: list[Standing]) -> list[int]:
    """Ranks 1, 2, 2, 4 … for standings already sorted best first: ties share a rank."""
    ranks: list[int] = []
    for index, standing in enumerate(ordered):
        tied = index > 0 and standing.ties(ordered[index - 1])
        ranks.append(ranks[-1] if tied else index + 1)
    return ranks


def standing_of(row: BoardRow) -> Standing:
    reached = None if row.reached_at is None else int(row.reached_at.timestamp() * 1000)
    return Standing(row.correct, row.answered, reached)


def entry(rank: int, row: BoardRow) -> LeaderboardEntry:
    player = row.player
    return LeaderboardEntry(
        rank=rank,
        user_id=player.id,
        first_name=player.first_name,
        last_name=player.last_name,
        username=player.username,
        correct=row.correct,
        answered=row.answered,
        reached_at=row.reached_at,
    )


def ranked(rows: list[BoardRow]) -> list[LeaderboardEntry]:
    """Entries with competition ranks for rows already sorted best first."""
    ranks = competition_ranks([standing_of(row) for row in rows])
    return [entry(rank, row) for rank, row in zip(ranks, rows, strict=True)]
