"""The storage ports for learner memory (re-exported by `bot.core.ports`)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Protocol

from bot.core.model.memory import Card, Learned, LearnSource
from bot.core.ports.boards import PeriodBounds


class MemoryWrites(Protocol):
    """Part of `ports.Writes`: these commit with the transaction they are called in."""

    async def card(self, user_id: int, deck_id: str, question_id: str) -> Card | None: ...

    async def save_card(self, card: Card) -> None: ...

    async def log_learning(
        self,
        user_id: int,
        deck_id: str,
        question_id: str,
        correct: bool,
        at: datetime,
        duration_ms: int | None,
        source: LearnSource,
    ) -> None: ...


class ForgetStore(Protocol):
    async def answered_chats(self, user_id: int) -> list[int]:
        """The chats whose leaderboards count the user's answers."""
        ...

    async def forget_user(self, user_id: int, bounds: Mapping[int, PeriodBounds]) -> None:
        """Delete the user's answers, cards, learning log, fitted memory parameters, reports,
        exams and name, and recount the boards of the chats in `bounds` (each with its
        periods), in one transaction."""
        ...


class MemoryStore(Protocol):
    async def due_cards(self, user_id: int, deck_id: str, now: datetime, limit: int) -> list[Card]:
        """The cards due at `now`, the longest overdue first."""
        ...

    async def due_count(self, user_id: int, deck_id: str, now: datetime) -> int: ...

    async def next_due(self, user_id: int, deck_id: str) -> datetime | None:
        """When the user's next card in the deck is due (past or future); None: no cards."""
        ...

    async def leeches(self, user_id: int, deck_id: str) -> list[Card]: ...

    async def history(self, user_id: int, deck_id: str, since: datetime) -> list[Learned]:
        """Every first press the user made on the deck's questions since `since`."""
        ...
