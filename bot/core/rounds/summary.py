"""How a round went: the summary its last message shows (read when the message is sent)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.core.catalog import Catalog
from bot.core.chats import ChatService
from bot.core.clock import Clock
from bot.core.model import Round, RoundEnd, RoundScore
from bot.core.ports import MemoryStore, RoundStore
from content.models import Question

SCOREBOARD_SIZE = 10


@dataclass(frozen=True)
class RoundSummary:
    round: Round
    stopped: bool
    # Private rounds: each question with the starter's result (None: not answered).
    results: list[tuple[Question, bool | None]]
    # Group rounds: the round's leaderboard.
    scores: list[RoundScore]
    duration: timedelta
    next_due: datetime | None = None  # review sessions: when the learner's next card is due

    @property
    def correct(self) -> int:
        return sum(1 for _, ok in self.results if ok)


class RoundSummaries:
    def __init__(
        self,
        *,
        rounds: RoundStore,
        chats: ChatService,
        catalog: Catalog,
        clock: Clock,
        memory: MemoryStore | None = None,
    ) -> None:
        self._rounds = rounds
        self._chats = chats
        self._catalog = catalog
        self._clock = clock
        self._memory = memory

    async def of(self, round_id: int) -> RoundSummary | None:
        """How a round went, for its summary message."""
        current = await self._rounds.get_round(round_id)
        if current is None:
            return None
        results: list[tuple[Question, bool | None]] = []
        for item in await self._rounds.round_questions(round_id, current.started_by):
            question = self._catalog.question(item.deck_id, item.question_id)
            if question is not None:
                results.append((question, item.correct))
        scores = await self._rounds.round_scores(round_id, SCOREBOARD_SIZE)
        last = await self._rounds.round_last_answer_at(round_id)
        end = last or current.ended_at or self._clock.now()
        stopped = current.end_reason is RoundEnd.STOPPED
        next_due = None
        if current.is_review and self._memory is not None:
            deck = await self._chats.deck_for(current.chat_id)
            next_due = await self._memory.next_due(current.started_by, deck.id)
        return RoundSummary(current, stopped, results, scores, end - current.started_at, next_due)
