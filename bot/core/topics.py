"""`/topics` and the mastery block of a private `/me`: a learner's mastery of each topic of the
chat's deck over the last 90 days, from every first press they made in any chat."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from bot.core.chats import ChatService
from bot.core.clock import Clock
from bot.core.memory.fit.service import MemoryFitting
from bot.core.model import Card, MemoryModel, UserStats
from bot.core.ports import AskStore, MemoryStore
from bot.core.rules.mastery import WINDOW, Mastery, mastery_of

# Due cards read at most: a learner has one card per question they missed, so this is only a
# bound for decks that lost questions since (their cards are read but count nowhere).
DUE_READ_LIMIT = 5000


@dataclass(frozen=True)
class PrivateMe:
    """A private `/me`: the chat's stats, and the mastery block below them."""

    stats: UserStats
    mastery: Mastery
    # Questions missed LEECH_LAPSES times or more, with their text: studied differently.
    leeches: tuple[tuple[str, Card], ...] = ()
    # Whether their memory model in the deck is fitted to them; None: not told (no fitting).
    memory: MemoryModel | None = None


class TopicService:
    def __init__(
        self,
        *,
        memory: MemoryStore,
        asks: AskStore,
        chats: ChatService,
        clock: Clock,
        window: timedelta = WINDOW,
        fits: MemoryFitting | None = None,
    ) -> None:
        self._fits = fits
        self._memory = memory
        self._asks = asks
        self._chats = chats
        self._clock = clock
        self._window = window

    async def mastery(self, chat_id: int, user_id: int) -> Mastery:
        """The user's mastery of each topic of the chat's deck, weakest first, with the
        reviews due in each."""
        deck = await self._chats.deck_for(chat_id)
        now = self._clock.now()
        history = await self._memory.history(user_id, deck.id, now - self._window)
        due = await self._memory.due_cards(user_id, deck.id, now, DUE_READ_LIMIT)
        return mastery_of(deck, history, due, self._window)

    async def private_me(self, chat_id: int, user_id: int) -> PrivateMe:
        deck = await self._chats.deck_for(chat_id)
        texts = {question.id: question.text for question in deck.questions}
        leeches = tuple(
            (texts[card.question_id], card)
            for card in await self._memory.leeches(user_id, deck.id)
            if card.question_id in texts
        )
        return PrivateMe(
            await self._asks.user_stats(chat_id, user_id),
            await self.mastery(chat_id, user_id),
            leeches,
            None if self._fits is None else await self._fits.model_of(user_id, deck.id),
        )
