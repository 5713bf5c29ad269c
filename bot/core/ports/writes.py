"""Writes that commit together: a use case records its state and owed messages in one."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Protocol

from bot.core.model import (
    Answer,
    Ask,
    AskDraft,
    ChatRef,
    PeriodKeys,
    Player,
    Round,
    RoundEnd,
    RoundKind,
)
from bot.core.ports.daily import DailyWrites
from bot.core.ports.exams import ExamWrites
from bot.core.ports.memory import MemoryWrites
from bot.core.ports.outbox import OutboxWrites
from bot.core.ports.reports import ReportWrites


class Writes(OutboxWrites, DailyWrites, ReportWrites, MemoryWrites, ExamWrites, Protocol):
    """Writes that commit together (one transaction)."""

    async def upsert_chat(self, chat: ChatRef, now: datetime) -> None: ...

    async def ensure_chat(self, chat: ChatRef, now: datetime) -> None:
        """Know the chat (effects refer to it), without changing a row that exists."""
        ...

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

    async def set_ask_message(
        self, ask_id: int, message_id: int, posted_at: datetime | None = None
    ) -> None:
        """The ask was posted as message `message_id` (at `posted_at`)."""
        ...

    async def extend_ask(self, ask_id: int, closes_at: datetime) -> None:
        """Move an open ask's deadline to `closes_at` (it was posted late)."""
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
        picked: frozenset[int] | None = None,
    ) -> Answer | None:
        """Store the player's first answer (closing the ask with `close`); None when they
        had answered this ask before (nothing is written then). `picked`: every position of
        a "choose N" answer (`position` is the first)."""
        ...


class Store(Protocol):
    def transaction(self) -> AbstractAsyncContextManager[Writes]: ...

    async def grouped(self, write: Callable[[Writes], Awaitable[None]]) -> None:
        """Run `write` in a transaction that writes arriving at the same moment may share (a
        fan-out settles hundreds of effects a second); committed before this returns. If the
        shared transaction fails, each write is run again in one of its own, so one failing
        write fails alone."""
        ...
