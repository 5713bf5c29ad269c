"""Scores: leaderboards by week, month and all time, `/me`, and a private chat's totals."""

from __future__ import annotations

from bot.core.chats import ChatService
from bot.core.clock import Clock
from bot.core.model import PeriodKind, UserStats
from bot.core.ports import AskStore, BoardStore
from bot.core.rules.periods import period_start
from bot.core.rules.ranking import Leaderboard, PlayerSummary, entry, ranked

TOP = 10


class BoardService:
    def __init__(
        self, *, boards: BoardStore, asks: AskStore, chats: ChatService, clock: Clock
    ) -> None:
        self._boards = boards
        self._asks = asks
        self._chats = chats
        self._clock = clock

    async def leaderboard(self, chat_id: int, kind: PeriodKind, viewer_id: int) -> Leaderboard:
        """The top ten, and the viewer's own line when they answered but are not in it."""
        start = period_start(kind, self._clock.now(), await self._chats.zone_of(chat_id))
        entries = ranked(await self._boards.top(chat_id, kind, start, TOP))
        viewer = None
        if all(e.user_id != viewer_id for e in entries):
            mine = await self._boards.standing(chat_id, kind, start, viewer_id)
            if mine is not None:
                viewer = entry(mine.ahead + 1, mine.row)
        return Leaderboard(entries, viewer)

    async def player_summary(self, chat_id: int, user_id: int) -> PlayerSummary | None:
        """All-time points and streaks here with the ranks; None without answers."""
        now = self._clock.now()
        overall = await self._boards.standing(chat_id, PeriodKind.ALL, now, user_id)
        if overall is None:
            return None
        week_start = period_start(PeriodKind.WEEK, now, await self._chats.zone_of(chat_id))
        week = await self._boards.standing(chat_id, PeriodKind.WEEK, week_start, user_id)
        return PlayerSummary(
            points=overall.row.correct,
            answered=overall.row.answered,
            streak=overall.streak,
            best_streak=overall.best_streak,
            week_rank=None if week is None else week.ahead + 1,
            all_rank=overall.ahead + 1,
        )

    async def stats(self, chat_id: int, user_id: int) -> UserStats:
        return await self._asks.user_stats(chat_id, user_id)
