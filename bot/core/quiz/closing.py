"""Closing group questions at their stored deadlines: reveal, then the round moves on."""

from __future__ import annotations

from bot.core.chats import ChatService
from bot.core.clock import Clock
from bot.core.delivery import Outbox
from bot.core.model import Ask, RoundEnd
from bot.core.ports import AskStore, Store
from bot.core.quiz.reveals import reveal
from bot.core.rounds.service import RoundService

DUE_BATCH = 500


class Closer:
    def __init__(
        self,
        *,
        store: Store,
        asks: AskStore,
        rounds: RoundService,
        chats: ChatService,
        clock: Clock,
        outbox: Outbox,
    ) -> None:
        self._outbox = outbox
        self._store = store
        self._asks = asks
        self._rounds = rounds
        self._chats = chats
        self._clock = clock

    async def close_due(self) -> set[int]:
        """Close every question whose deadline has passed; the chats that now owe messages.

        Nothing here waits for Telegram: the reveal and what follows are owed messages, so
        one busy chat never delays another chat's close.
        """
        chats: set[int] = set()
        while True:
            due = await self._asks.due_asks(self._clock.now(), DUE_BATCH)
            for ask in due:
                if await self.close(ask):
                    chats.add(ask.chat_id)
            if len(due) < DUE_BATCH:
                return chats

    async def close(self, ask: Ask) -> bool:
        """Close one group question, owe its reveal and, in a round, the next question or the
        summary, in one commit. False when it was closed already."""
        active = await self._chats.is_active(ask.chat_id)
        step = None
        if ask.round_id is not None:
            step = await self._rounds.plan(ask.round_id)
        now = self._clock.now()
        async with self._store.transaction() as tx:
            if not await tx.close_ask(ask.id, now):
                return False
            if not active:
                # The bot was removed: keep the history, send nothing, end the round.
                if step is not None:
                    await tx.end_round(ask.round_id or 0, RoundEnd.STOPPED, now)
                return True
            await self._outbox.owe(tx, reveal(ask))
            if step is not None:
                await self._rounds.apply(tx, step)
        return True
