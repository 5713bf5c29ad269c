"""`/review`: a private round over the learner's due cards, the longest overdue first.

A card missed in the session comes back once at its end. The session is a round of kind
`review`: the round machinery (Next ▶, /stop, the summary) serves it; only the choice of the
next question differs, and the round's size is only a ceiling.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.core.catalog import Catalog
from bot.core.chats import ChatService
from bot.core.clock import Clock
from bot.core.memory.plan import MAX_REVIEW
from bot.core.model import AskOrigin, ChatRef, RoundKind
from bot.core.ports import MemoryStore, Store
from bot.core.quiz import Asking, Queued
from bot.core.rounds.service import RoundRunning


@dataclass(frozen=True)
class NothingDue:
    next_due: datetime | None  # None: the learner has no cards at all


class ReviewService:
    def __init__(
        self,
        *,
        store: Store,
        memory: MemoryStore,
        asking: Asking,
        chats: ChatService,
        catalog: Catalog,
        clock: Clock,
    ) -> None:
        self._store = store
        self._memory = memory
        self._asking = asking
        self._chats = chats
        self._catalog = catalog
        self._clock = clock

    async def start(self, chat: ChatRef, user_id: int) -> Queued | NothingDue | RoundRunning:
        """Start a review session in the learner's private chat and owe its first question."""
        deck = await self._chats.deck_for(chat.id)
        now = self._clock.now()
        due = [
            card
            for card in await self._memory.due_cards(user_id, deck.id, now, MAX_REVIEW)
            if self._catalog.question(deck.id, card.question_id) is not None
        ]
        if not due:
            return NothingDue(await self._memory.next_due(user_id, deck.id))
        size = min(MAX_REVIEW, 2 * len(due))  # a ceiling: each may come back once
        async with self._store.transaction() as tx:
            await tx.upsert_chat(chat, now)
            started = await tx.start_round(chat.id, None, user_id, size, now, RoundKind.REVIEW)
            if started is None:
                return RoundRunning()
            draft = await self._asking.draft(
                chat,
                None,
                origin=AskOrigin.ROUND,
                round_id=started.id,
                question_id=due[0].question_id,
            )
            ask = await self._asking.post(tx, draft)
        return Queued(ask)
