"""The ticker: closes group questions at their stored deadlines and paces live counts."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from telegram import Bot
from telegram.error import BadRequest, ChatMigrated, Forbidden

from bot import render_group
from bot.core.domain import Ask
from bot.core.service import QuizService, Reveal
from bot.live_count import LiveCounts

log = logging.getLogger(__name__)

TICK_SECONDS = 1.0


class Ticker:
    """Runs every second (PTB's JobQueue) and at start, reading deadlines from SQLite."""

    def __init__(self, quiz: QuizService, bot: Bot, live: LiveCounts) -> None:
        self.quiz = quiz
        self.bot = bot
        self.live = live
        # Called with each question that closed (a group round posts its next question).
        self.on_closed: Callable[[Ask], Awaitable[None]] | None = None
        self._lock = asyncio.Lock()

    async def tick(self) -> None:
        async with self._lock:
            await self.live.flush()
            for ask in await self.quiz.due_asks():
                await self.close(ask)

    async def close(self, ask: Ask) -> Reveal | None:
        """Close one question and show the reveal; None when it was closed already."""
        reveal = await self.quiz.close(ask)
        self.live.forget(ask.id)
        if reveal is None:
            return None
        if await self.quiz.is_active(ask.chat_id):
            await self._show(reveal)
        if self.on_closed is not None:
            await self.on_closed(ask)
        return reveal

    async def _show(self, reveal: Reveal) -> None:
        ask = reveal.ask
        if ask.message_id is None:
            return
        deck = self.quiz.decks[ask.deck_id]
        try:
            await self.bot.edit_message_text(
                render_group.reveal_message(reveal.question, ask, deck.title, reveal.tally),
                chat_id=ask.chat_id,
                message_id=ask.message_id,
                reply_markup=None,
            )
        except ChatMigrated as error:
            await self.quiz.move_chat(ask.chat_id, error.new_chat_id)
        except Forbidden:
            log.info("chat %s removed the bot; marking it inactive", ask.chat_id)
            await self.quiz.chat_removed(ask.chat_id)
        except BadRequest as error:
            log.info("could not reveal ask %s: %s", ask.id, error.message)
