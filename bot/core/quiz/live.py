"""The live '👥 N answered' line of open group questions: what an edit shows (`LiveQuestions`),
and the new answers read from the database (`LiveAnswers`).

With replicas, the presses of one question land on every replica; the leader alone keeps its
line current, from the answers any replica recorded.
"""

from __future__ import annotations

from dataclasses import dataclass
from zoneinfo import ZoneInfo

from bot.core.catalog import Catalog
from bot.core.chats import ChatService
from bot.core.clock import Clock
from bot.core.model import Ask
from bot.core.ports import AnsweredAsks, AskStore
from content.models import Question

# At most this many new answers' questions are read per call (the rest on the next one).
BATCH = 5000


class LiveAnswers:
    def __init__(self, *, asks: AnsweredAsks, clock: Clock) -> None:
        self._asks = asks
        self._clock = clock
        self._after: int | None = None

    def restart(self) -> None:
        """Read only answers from now on (a replica that has just become the leader)."""
        self._after = None

    async def newly_answered(self) -> list[Ask]:
        """Open, posted, timed questions answered since the last call."""
        self._after, asks = await self._asks.answered_asks_after(self._after, BATCH)
        now = self._clock.now()
        return [
            ask
            for ask in asks
            if not ask.is_closed
            and ask.message_id is not None
            and ask.closes_at is not None
            and ask.closes_at > now
        ]


@dataclass(frozen=True)
class LiveView:
    """An open group question with its current count of answers."""

    ask: Ask
    question: Question
    deck_title: str
    zone: ZoneInfo
    answered: int


class LiveQuestions:
    def __init__(
        self, *, asks: AskStore, chats: ChatService, catalog: Catalog, clock: Clock
    ) -> None:
        self._asks = asks
        self._chats = chats
        self._catalog = catalog
        self._clock = clock

    async def view(self, ask_id: int) -> LiveView | None:
        """The question for a live-count edit; None once it has closed (or never posted)."""
        ask = await self._asks.get_ask(ask_id)
        question = None if ask is None else self._catalog.question_of(ask)
        if ask is None or question is None or ask.message_id is None or ask.is_closed:
            return None
        if ask.closes_at is None or ask.closes_at <= self._clock.now():
            return None
        answered = await self._asks.answer_count(ask.id)
        zone = await self._chats.zone_of(ask.chat_id)
        return LiveView(ask, question, self._catalog.title(ask.deck_id), zone, answered)
