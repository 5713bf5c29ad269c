"""`/quiz` (one question, or in a group a pointer to the one that is open) and taking the
answers to questions of every kind."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.catalog import Catalog
from bot.core.chats import ChatService
from bot.core.clock import Clock
from bot.core.delivery import Outbox
from bot.core.memory.scheduling import Memory
from bot.core.model import Ask, ChatRef, NewEffect
from bot.core.ports import AskStore, MemoryStore, RoundStore, SelectionStore, Store, Writes
from bot.core.quiz.answers import Answers, PicksKind
from bot.core.quiz.asking import Asking
from bot.core.quiz.reveals import (
    STILL_OPEN,
    AnsweredKind,
    ExplanationKind,
    RevealKind,
    StillOpenKind,
    still_open_key,
)
from bot.core.rounds.summary import RoundSummaries
from bot.core.rules.mastery import NoSuchTopic, resolve_topic


@dataclass(frozen=True)
class Queued:
    """The question is stored and its message is owed (a worker sends it)."""

    ask: Ask


@dataclass(frozen=True)
class StillOpen:
    """A group already has an open `/quiz` question here: answer that one first. The group
    is owed one pointer to it, the first time it is asked for (`pointed`)."""

    ask: Ask
    pointed: bool = False


class QuizService(Answers):
    """`/quiz`, and (from `Answers`) the presses on its questions' buttons."""

    def __init__(
        self,
        *,
        store: Store,
        asks: AskStore,
        rounds: RoundStore,
        asking: Asking,
        chats: ChatService,
        catalog: Catalog,
        clock: Clock,
        outbox: Outbox,
        summaries: RoundSummaries,
        picks: SelectionStore,
        memory: Memory | None = None,
        cards: MemoryStore | None = None,
    ) -> None:
        self._cards = cards
        self._outbox = outbox
        outbox.register(RevealKind(asks, catalog))
        outbox.register(AnsweredKind(asks, catalog))
        outbox.register(ExplanationKind(asks, catalog, summaries))
        outbox.register(StillOpenKind(asks))
        outbox.register(PicksKind(asks, picks))
        self._picks = picks
        self._store = store
        self._asks = asks
        self._rounds = rounds
        self._asking = asking
        self._chats = chats
        self._catalog = catalog
        self._clock = clock
        self._memory = memory or Memory()

    async def quiz(
        self,
        chat: ChatRef,
        thread_id: int | None,
        topic: str | None = None,
        *,
        message_id: int | None = None,
    ) -> Queued | StillOpen | NoSuchTopic:
        """`/quiz`: one question. A group gets no second one while one is open in the thread;
        the first `/quiz` (`message_id`) that finds it open is owed a pointer to it, however
        many ask, on whichever replica. `/quiz TOPIC`: from the deck's topic `topic` names (as
        typed); naming none or several changes nothing."""
        chosen: str | None = None
        if topic is not None:
            found = resolve_topic(await self._chats.deck_for(chat.id), topic)
            if isinstance(found, NoSuchTopic):
                return found
            chosen = found
        if chat.kind.is_group:
            open_ask = await self._asks.open_quiz_ask(chat.id, thread_id, self._clock.now())
            if open_ask is not None:
                return await self._point(open_ask, message_id)
        draft = await self._asking.draft(chat, thread_id, topic=chosen)
        async with self._store.transaction() as tx:
            # The chat's row first: writing it holds it until the commit, so a crowd asking at
            # once (on any replica) takes turns here and each sees the question asked before.
            await tx.upsert_chat(chat, self._clock.now())
            if chat.kind.is_group:
                open_ask = await tx.open_quiz_ask(chat.id, thread_id, self._clock.now())
                if open_ask is not None:
                    return StillOpen(open_ask, await self._owe_pointer(tx, open_ask, message_id))
            ask = await self._asking.post(tx, draft)
        return Queued(ask)

    async def _point(self, open_ask: Ask, message_id: int | None) -> StillOpen:
        async with self._store.transaction() as tx:
            return StillOpen(open_ask, await self._owe_pointer(tx, open_ask, message_id))

    async def _owe_pointer(self, tx: Writes, open_ask: Ask, message_id: int | None) -> bool:
        pointer = NewEffect(
            open_ask.chat_id,
            STILL_OPEN,
            thread_id=open_ask.thread_id,
            ask_id=open_ask.id,
            message_id=message_id,
            dedupe_key=still_open_key(open_ask.id),
        )
        return await self._outbox.owe(tx, pointer)
