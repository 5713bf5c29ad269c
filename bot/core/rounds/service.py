"""Rounds: `/quiz N` asks N questions one after another and ends with a summary; `/stop`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.core.catalog import Catalog
from bot.core.chats import ChatService
from bot.core.clock import Clock
from bot.core.delivery import Outbox
from bot.core.memory.plan import next_review_question
from bot.core.model import (
    AskDraft,
    AskOrigin,
    ChatRef,
    NewEffect,
    Round,
    RoundEnd,
)
from bot.core.ports import AskStore, MemoryStore, RoundStore, Store, Writes
from bot.core.quiz import Asking, Queued
from bot.core.quiz.reveals import reveal
from bot.core.rounds.owed import UNBUTTON, SummaryKind, UnbuttonKind, summary_of
from bot.core.rounds.summary import RoundSummaries, RoundSummary
from bot.core.rules.mastery import NoSuchTopic, resolve_topic, topic_size

MAX_ROUND = 20


@dataclass(frozen=True)
class RoundRunning:
    """The chat has a round running already (one at a time)."""


@dataclass(frozen=True)
class RoundOver:
    """A `Next ▶` for a round that ended or has moved on (a repeated press)."""


@dataclass(frozen=True)
class NoRound:
    pass


@dataclass(frozen=True)
class NotAllowed:
    """Only the member who started the round or an admin may stop it."""


@dataclass(frozen=True)
class Stopped:
    round: Round


@dataclass(frozen=True)
class NextQuestion:
    draft: AskDraft


@dataclass(frozen=True)
class Finish:
    round: Round


RoundStep = NextQuestion | Finish


class RoundService:
    def __init__(
        self,
        *,
        store: Store,
        rounds: RoundStore,
        asks: AskStore,
        asking: Asking,
        chats: ChatService,
        catalog: Catalog,
        clock: Clock,
        outbox: Outbox,
        summaries: RoundSummaries,
        memory: MemoryStore | None = None,
    ) -> None:
        self._outbox = outbox
        self._summaries = summaries
        outbox.register(SummaryKind(summaries, chats))
        outbox.register(UnbuttonKind())
        self._store = store
        self._rounds = rounds
        self._asks = asks
        self._asking = asking
        self._chats = chats
        self._catalog = catalog
        self._clock = clock
        self._memory = memory

    async def start(
        self,
        chat: ChatRef,
        thread_id: int | None,
        user_id: int,
        size: int,
        topic: str | None = None,
    ) -> Queued | RoundRunning | NoSuchTopic:
        """Start a round and owe its first question. A round never outgrows the deck (or its
        topic: `topic` as typed, naming none or several changes nothing), so it never asks a
        question twice."""
        deck = await self._chats.deck_for(chat.id)
        chosen = None if topic is None else resolve_topic(deck, topic)
        if isinstance(chosen, NoSuchTopic):
            return chosen
        size = max(1, min(size, MAX_ROUND, topic_size(deck, chosen)))
        now = self._clock.now()
        async with self._store.transaction() as tx:
            await tx.upsert_chat(chat, now)
            started = await tx.start_round(chat.id, thread_id, user_id, size, now, topic=chosen)
            if started is None:
                return RoundRunning()
            draft = await self._asking.draft(
                chat, thread_id, origin=AskOrigin.ROUND, round_id=started.id, topic=chosen
            )
            ask = await self._asking.post(tx, draft)
        return Queued(ask)

    async def next(
        self, chat: ChatRef, round_id: int, asked: int, button_message_id: int | None
    ) -> Queued | RoundOver:
        """`Next ▶` in a private round shown after `asked` questions."""
        step = await self.plan(round_id)
        current = await self._rounds.get_round(round_id)
        if not isinstance(step, NextQuestion) or current is None or current.chat_id != chat.id:
            return RoundOver()
        # The question the pressed message explained keeps its `⚑ Report` button.
        explained = (await self._asks.round_asks(round_id))[-1:]
        now = self._clock.now()
        async with self._store.transaction() as tx:
            # The chat's row first: a second Next ▶ handled at the same moment (another
            # replica, another connection) waits for this commit and then sees the question.
            await tx.upsert_chat(chat, now)
            if await tx.round_asked(round_id) != asked:
                return RoundOver()
            ask = await self._asking.post(tx, step.draft)
            if button_message_id is not None:
                unbutton = NewEffect(
                    chat.id,
                    UNBUTTON,
                    thread_id=ask.thread_id,
                    ask_id=explained[0].id if explained else None,
                    message_id=button_message_id,
                )
                await self._outbox.owe(tx, unbutton)
        return Queued(ask)

    async def plan(self, round_id: int) -> RoundStep | None:
        """What a running round does next: ask another question or finish."""
        current = await self._rounds.get_round(round_id)
        if current is None or not current.is_running:
            return None
        asked = await self._asks.round_asks(round_id)
        chat = await self._chats.ref(current.chat_id)
        if len(asked) >= current.size or chat is None:
            return Finish(current)
        if current.is_review:
            return await self._plan_review(current, chat)
        draft = await self._asking.draft(
            chat,
            current.thread_id,
            origin=AskOrigin.ROUND,
            round_id=current.id,
            avoid=frozenset(ask.question_id for ask in asked),
            topic=current.topic,
        )
        return NextQuestion(draft)

    async def _plan_review(self, current: Round, chat: ChatRef) -> RoundStep:
        if self._memory is None:
            return Finish(current)
        deck = await self._chats.deck_for(chat.id)
        now = self._clock.now()
        question_id = await next_review_question(self._memory, self._asks, current, deck.id, now)
        if question_id is None:
            return Finish(current)
        draft = await self._asking.draft(
            chat, None, origin=AskOrigin.ROUND, round_id=current.id, question_id=question_id
        )
        return NextQuestion(draft)

    async def apply(self, tx: Writes, step: RoundStep) -> None:
        if isinstance(step, NextQuestion):
            await self._asking.post(tx, step.draft)
            return
        await self.finish(tx, step.round, RoundEnd.FINISHED)

    async def finish(self, tx: Writes, current: Round, reason: RoundEnd) -> None:
        now = self._clock.now()
        if await tx.end_round(current.id, reason, now):
            await self._outbox.owe(tx, summary_of(current))

    async def stop(
        self, chat_id: int, user_id: int, may_override: Callable[[], Awaitable[bool]]
    ) -> Stopped | NoRound | NotAllowed:
        """`/stop`: end the running round, reveal its open question and owe the summary."""
        running = await self._rounds.running_round(chat_id)
        if running is None:
            return NoRound()
        if running.started_by != user_id and not await may_override():
            return NotAllowed()
        open_asks = [ask for ask in await self._asks.round_asks(running.id) if not ask.is_closed]
        now = self._clock.now()
        async with self._store.transaction() as tx:
            for ask in open_asks:
                if await tx.close_ask(ask.id, now) and ask.closes_at is not None:
                    await self._outbox.owe(tx, reveal(ask))
            await self.finish(tx, running, RoundEnd.STOPPED)
        return Stopped(running)

    async def running(self, chat_id: int) -> Round | None:
        return await self._rounds.running_round(chat_id)

    async def summary(self, round_id: int) -> RoundSummary | None:
        """How a round went, for its summary message."""
        return await self._summaries.of(round_id)
