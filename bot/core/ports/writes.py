"""Writes that commit together: a use case records its state and owed messages in one."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Protocol

from bot.core.model import (
    Answer,
    Ask,
    AskDraft,
    ChatRef,
    Effect,
    NewEffect,
    PeriodKeys,
    Player,
    Round,
    RoundEnd,
    RoundKind,
)
from bot.core.ports.exams import ExamWrites
from bot.core.ports.memory import MemoryWrites
from bot.core.ports.reports import ReportWrites


class Writes(ReportWrites, MemoryWrites, ExamWrites, Protocol):
    """Writes that commit together (one transaction)."""

    async def upsert_chat(self, chat: ChatRef, now: datetime) -> None: ...

    async def create_ask(self, draft: AskDraft) -> Ask: ...

    async def close_ask(self, ask_id: int, now: datetime) -> bool:
        """Close an open ask; False when it was closed already."""
        ...

    async def start_round(
        self,
        chat_id: int,
        thread_id: int | None,
        started_by: int,
        size: int,
        now: datetime,
        kind: RoundKind = RoundKind.QUIZ,
        topic: str | None = None,
    ) -> Round | None:
        """A new running round (asking from `topic` only, when given), or None when the chat
        has one running already."""
        ...

    async def end_round(self, round_id: int, reason: RoundEnd, now: datetime) -> bool:
        """End a running round; False when it had ended already."""
        ...

    async def round_asked(self, round_id: int) -> int:
        """How many questions the round has asked, read inside the transaction."""
        ...

    async def open_quiz_ask(self, chat_id: int, thread_id: int | None, now: datetime) -> Ask | None:
        """AskStore.open_quiz_ask, read inside the transaction."""
        ...

    async def enqueue(
        self, effect: NewEffect, now: datetime, not_before: datetime | None = None
    ) -> None:
        """Record a message the bot owes, to be sent by a worker after the commit (and not
        before `not_before` when given)."""
        ...

    async def effect_failed(self, effect: Effect, error: str, now: datetime) -> None:
        """Give up on an effect for good (the state change that follows is the caller's)."""
        ...

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
    ) -> Answer | None:
        """Store the player's first answer (closing the ask with `close`); None when they
        had answered this ask before (nothing is written then)."""
        ...


class Store(Protocol):
    def transaction(self) -> AbstractAsyncContextManager[Writes]: ...
