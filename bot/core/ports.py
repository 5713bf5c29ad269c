"""The storage ports: what the quiz core needs from a database, as Protocols.

Storage adapters (`storage.sqlite` today) implement them; the core never imports one. Every
time is an aware UTC datetime. A method that writes commits before it returns, unless it is
called on a `Writes` inside `Store.transaction()`, which commits everything at the end of the
block or nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import date, datetime
from typing import Protocol

from bot.core.exam_ports import ExamStore as ExamStore
from bot.core.exam_ports import ExamWrites
from bot.core.item_ports import FirstAnswer as FirstAnswer
from bot.core.item_ports import ItemStore as ItemStore
from bot.core.memory_ports import ForgetStore as ForgetStore
from bot.core.memory_ports import MemoryStore as MemoryStore
from bot.core.memory_ports import MemoryWrites
from bot.core.model import (
    Answer,
    Ask,
    AskDraft,
    BoardRow,
    BoardStanding,
    Card,
    ChatRef,
    ChatSettings,
    Effect,
    NewEffect,
    PassState,
    PeriodKeys,
    PeriodKind,
    Player,
    Push,
    Round,
    RoundEnd,
    RoundKind,
    RoundQuestion,
    RoundScore,
    Schedule,
    SlotDecision,
    Tally,
    UserStats,
)
from bot.core.report_ports import ReportStore as ReportStore
from bot.core.report_ports import ReportWrites

# (kind, moment) -> the [start, end) of the period of `kind` that `moment` falls in, in the
# chat's time zone; the core passes it to recount a chat's boards.
PeriodBounds = Callable[[PeriodKind, datetime], tuple[datetime, datetime]]


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


class ChatStore(Protocol):
    async def upsert_chat(self, chat: ChatRef, now: datetime) -> None: ...

    async def chat(self, chat_id: int) -> ChatSettings | None: ...

    async def set_timezone(self, chat_id: int, zone_key: str) -> None: ...

    async def set_deck(self, chat_id: int, deck_id: str) -> None: ...

    async def set_active(self, chat_id: int, active: bool) -> bool:
        """True when that changed anything."""
        ...

    async def move_chat(
        self, old_id: int, new_id: int, bounds: PeriodBounds, now: datetime
    ) -> bool:
        """Move everything keyed by `old_id` to `new_id` in one transaction (group →
        supergroup), whether or not `new_id` was seen first; boards of `new_id` are recounted
        with `bounds`. Idempotent: False when there was nothing to move."""
        ...


class AskStore(Protocol):
    async def pass_state(self, chat_id: int, deck_id: str) -> PassState: ...

    async def get_ask(self, ask_id: int) -> Ask | None: ...

    async def open_quiz_ask(self, chat_id: int, thread_id: int | None, now: datetime) -> Ask | None:
        """The newest open `/quiz` question (not a round's or a daily one) in the chat's
        thread (`None`: outside forum topics), if any."""
        ...

    async def get_answer(self, ask_id: int, user_id: int) -> Answer | None: ...

    async def record_answer(
        self,
        ask: Ask,
        player: Player,
        position: int,
        correct: bool,
        now: datetime,
        *,
        periods: PeriodKeys,
        review: Callable[[Card | None], Card | None] | None = None,
    ) -> Answer | None:
        """A group answer, committed on return (no transaction: the hot path); None when the
        player had answered this ask before. `review` maps the learner's card of the question
        (as the answer's statement returned it) to the card to save, if any: saved right
        after the answer under the same write lock (a crash in between loses only that
        card's update; the press itself is logged by the answer's statement)."""
        ...

    async def answer_count(self, ask_id: int) -> int: ...

    async def tally(self, ask_id: int) -> Tally: ...

    async def user_stats(self, chat_id: int, user_id: int) -> UserStats: ...

    async def due_asks(self, now: datetime, limit: int) -> list[Ask]:
        """Open asks whose deadline has passed, oldest deadline first. Only posted ones: a
        question's time runs from when members can see it (one never posted is closed when
        its post is given up)."""
        ...

    async def round_asks(self, round_id: int) -> list[Ask]: ...

    async def set_ask_message(self, ask_id: int, message_id: int) -> None: ...


class RoundStore(Protocol):
    async def get_round(self, round_id: int) -> Round | None: ...

    async def running_round(self, chat_id: int) -> Round | None: ...

    async def round_asked(self, round_id: int) -> int:
        """How many questions the round has asked."""
        ...

    async def round_questions(self, round_id: int, user_id: int) -> list[RoundQuestion]: ...

    async def round_scores(self, round_id: int, limit: int) -> list[RoundScore]: ...

    async def round_last_answer_at(self, round_id: int) -> datetime | None: ...


class BoardStore(Protocol):
    async def top(
        self, chat_id: int, kind: PeriodKind, start: datetime, limit: int
    ) -> list[BoardRow]:
        """Best first: correct answers, then accuracy, then who reached their count first."""
        ...

    async def standing(
        self, chat_id: int, kind: PeriodKind, start: datetime, user_id: int
    ) -> BoardStanding | None: ...

    async def rebuild_chat(self, chat_id: int, bounds: PeriodBounds) -> None:
        """Recount the chat's boards from its answers with new period bounds (time zone)."""
        ...


class DailyStore(Protocol):
    async def schedule(self, chat_id: int) -> Schedule | None: ...

    async def set_schedule(
        self, chat_id: int, local_time: str, next_slot_at: datetime, next_day: date, now: datetime
    ) -> None: ...

    async def disable_schedule(self, chat_id: int, now: datetime) -> bool: ...

    async def due_schedules(self, now: datetime, limit: int) -> list[tuple[Schedule, str | None]]:
        """Enabled schedules whose next slot has come, with their chat's time zone key."""
        ...

    async def record_slots(self, decisions: Sequence[SlotDecision], now: datetime) -> None: ...

    async def pending_pushes(self, limit: int) -> list[Push]: ...

    async def claim_pushes(
        self, replica: str, now: datetime, until: datetime, limit: int
    ) -> list[Push]:
        """See `bot.core.replica_ports.ReplicaStore.claim_pushes`."""
        ...

    async def push_for(self, chat_id: int, local_day: date) -> Push | None: ...

    async def attach_push_ask(self, push: Push, draft: AskDraft) -> Ask:
        """Create the push's ask and note it on the ledger row, together."""
        ...

    async def mark_push_sent(self, push: Push, ask_id: int, message_id: int, now: datetime) -> None:
        """The ask gets its message id and the ledger row is closed, together."""
        ...

    async def mark_push_attempt(
        self, push: Push, error: str, *, final: bool, now: datetime
    ) -> None: ...


class EffectStore(Protocol):
    async def due_effect_chats(self, now: datetime, limit: int) -> list[int]:
        """Chats with pending effects that may be tried now."""
        ...

    async def pending_effects(self, chat_id: int, limit: int) -> list[Effect]:
        """The chat's pending effects, oldest first, each with when it may be tried next."""
        ...

    async def effect_done(
        self,
        effect: Effect,
        now: datetime,
        message_id: int | None,
        closes_at: datetime | None = None,
    ) -> None:
        """Mark the effect done; for a QUESTION, the ask gets `message_id` (and, when given,
        its deadline `closes_at`) in the same commit."""
        ...

    async def effect_retry(self, effect: Effect, error: str, not_before: datetime) -> None: ...

    async def effect_failed(self, effect: Effect, error: str, now: datetime) -> None: ...

    async def drop_chat_effects(self, chat_id: int, error: str, now: datetime) -> int:
        """Fail every pending effect of a chat the bot can no longer write to."""
        ...
