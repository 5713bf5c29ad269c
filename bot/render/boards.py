"""Leaderboards and the group `/me`."""

from __future__ import annotations

from html import escape

from bot.core.model import PeriodKind
from bot.core.rules.ranking import Leaderboard, LeaderboardEntry, PlayerSummary

TITLES = {
    PeriodKind.WEEK: "this week",
    PeriodKind.MONTH: "this month",
    PeriodKind.ALL: "all time",
}
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


def _line(entry: LeaderboardEntry) -> str:
    # Plain escaped names, never mentions: a leaderboard must not notify anyone.
    rank = MEDALS.get(entry.rank, f"{entry.rank}.")
    return (
        f"{rank} {escape(entry.display_name)} — <b>{entry.correct}</b> "
        f"({entry.accuracy:.0%} of {entry.answered})"
    )


def leaderboard_message(board: Leaderboard, kind: PeriodKind, zone_key: str) -> str:
    title = f"🏆 <b>Leaderboard, {TITLES[kind]}</b>"
    if kind is not PeriodKind.ALL:
        title += f" <i>({escape(zone_key)})</i>"
    if not board.entries:
        return f"{title}\n\nNo answers yet. Send /quiz to start."
    lines = [_line(entry) for entry in board.entries]
    if board.viewer is not None:
        lines += ["…", _line(board.viewer) + " ← you"]
    return f"{title}\n\n" + "\n".join(lines)


def group_me_message(name: str, summary: PlayerSummary | None) -> str:
    if summary is None:
        return f"{escape(name)}, you haven't answered any questions here yet. Send /quiz."
    week = f"#{summary.week_rank}" if summary.week_rank else "—"
    overall = f"#{summary.all_rank}" if summary.all_rank else "—"
    return (
        f"📊 <b>{escape(name)}</b> in this chat\n"
        f"Points: <b>{summary.points}</b> of {summary.answered} answered "
        f"({summary.accuracy:.0%})\n"
        f"Streak: <b>{summary.streak}</b> now, best {summary.best_streak}\n"
        f"Rank: {week} this week, {overall} all time"
    )
