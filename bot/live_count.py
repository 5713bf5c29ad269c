"""The live '👥 N answered' line on open group questions, edited sparingly.

Telegram allows a group about 20 edits a minute, so a burst of presses must not turn into a
burst of edits. The first press after a quiet spell edits at once; presses within
`EDIT_INTERVAL` of the last edit only mark the message, and the ticker edits it once when the
interval is over. Fifty presses in two seconds therefore cost two edits.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from telegram import Bot
from telegram.error import BadRequest, Forbidden

from bot import render, render_group
from bot.core.domain import Ask
from bot.core.service import QuizService

log = logging.getLogger(__name__)

EDIT_INTERVAL = timedelta(seconds=5)


@dataclass
class _Counter:
    ask: Ask
    last_edit: datetime
    pending: bool = False


class LiveCounts:
    def __init__(self, quiz: QuizService, bot: Bot) -> None:
        self.quiz = quiz
        self.bot = bot
        # Only edit pacing lives here; the counts themselves are read from SQLite.
        self._counters: dict[int, _Counter] = {}

    async def answered(self, ask: Ask) -> None:
        """Note a recorded answer: edit now, or once the interval since the last edit is over."""
        now = self.quiz.clock.now()
        counter = self._counters.get(ask.id)
        if counter is not None and now - counter.last_edit < EDIT_INTERVAL:
            counter.pending = True
            return
        # Claimed before the first await, so concurrent presses see the edit as done.
        self._counters[ask.id] = _Counter(ask, now)
        await self._edit(ask)

    async def flush(self) -> None:
        """Edit every marked message whose interval is over (called by the ticker)."""
        now = self.quiz.clock.now()
        for counter in list(self._counters.values()):
            if counter.pending and now - counter.last_edit >= EDIT_INTERVAL:
                counter.pending, counter.last_edit = False, now
                await self._edit(counter.ask)

    def forget(self, ask_id: int) -> None:
        """The question closed: its final edit is the reveal."""
        self._counters.pop(ask_id, None)

    async def _edit(self, ask: Ask) -> None:
        question = self.quiz.question_of(ask)
        if question is None or ask.message_id is None:
            return
        answered = await self.quiz.answer_count(ask)
        zone = await self.quiz.zone_of(ask.chat_id)
        deck = self.quiz.decks[ask.deck_id]
        try:
            await self.bot.edit_message_text(
                render_group.open_question_message(question, ask, deck.title, answered, zone),
                chat_id=ask.chat_id,
                message_id=ask.message_id,
                reply_markup=render.question_keyboard(ask),
            )
        except (BadRequest, Forbidden) as error:
            # Not modified, deleted, or the bot was removed: the count is cosmetic.
            log.info("live count of ask %s not updated: %s", ask.id, error.message)
