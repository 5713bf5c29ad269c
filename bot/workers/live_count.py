"""The live '👥 N answered' line on open group questions, edited sparingly.

Telegram allows a group about 20 messages and edits a minute, and questions and reveals must
always find room. So a count is cosmetic: the first press after a quiet spell marks the
question for an edit, later presses within `EDIT_INTERVAL` of the last edit only keep the mark,
and the chat's sender makes the edit once it has no owed messages left, with the rate
limiter's droppable class: when the chat's window is tight the edit is skipped and tried at
the next interval. Only the pacing lives here; counts are read from the database.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from telegram.error import TelegramError
from telegram.ext import ExtBot

from bot.core.model import Ask
from bot.core.quiz.live import LiveView
from bot.render import group as render_group
from bot.render import media
from bot.render import questions as render
from bot.transport.ratelimit import RequestDropped, SendingStopped

log = logging.getLogger(__name__)

EDIT_INTERVAL_SECONDS = 5.0
DROPPABLE: dict[str, Any] = {"droppable": True}


@dataclass
class _Count:
    ask: Ask
    last_edit: float
    dirty: bool = False


class LiveCounts:
    def __init__(
        self,
        view: Callable[[int], Awaitable[LiveView | None]],
        bot: ExtBot[Any],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._view = view
        self._bot = bot
        self._clock = clock
        self._counts: dict[int, _Count] = {}  # by ask id

    def answered(self, ask: Ask) -> bool:
        """Note a recorded answer; True when the chat's sender should look now."""
        count = self._counts.setdefault(ask.id, _Count(ask, self._clock() - EDIT_INTERVAL_SECONDS))
        count.dirty = True
        return self._clock() - count.last_edit >= EDIT_INTERVAL_SECONDS

    def forget(self, ask_id: int) -> None:
        """The question closed: its last edit is the reveal."""
        self._counts.pop(ask_id, None)

    def due_chats(self) -> set[int]:
        now = self._clock()
        # A question past its deadline gets its reveal instead: its count is done with.
        for ask_id in [
            ask_id
            for ask_id, count in self._counts.items()
            if count.ask.closes_at is not None and count.ask.closes_at.timestamp() <= now
        ]:
            del self._counts[ask_id]
        return {
            c.ask.chat_id
            for c in self._counts.values()
            if c.dirty and now - c.last_edit >= EDIT_INTERVAL_SECONDS
        }

    async def flush(self, chat_id: int) -> None:
        """Edit the chat's marked questions whose interval is over (called by its sender)."""
        now = self._clock()
        for count in [c for c in self._counts.values() if c.ask.chat_id == chat_id]:
            if not count.dirty or now - count.last_edit < EDIT_INTERVAL_SECONDS:
                continue
            view = await self._view(count.ask.id)
            if view is None:  # closed meanwhile: the reveal is owed instead
                self.forget(count.ask.id)
                continue
            ask = view.ask
            # Claimed before the edit: presses meanwhile mark it again for the next interval.
            previous, count.dirty, count.last_edit = count.last_edit, False, now
            text = render_group.open_question_message(
                view.question, ask, view.deck_title, view.answered, view.zone
            )
            try:
                if media.captioned(view.question, ask, view.deck_title):
                    await self._bot.edit_message_caption(
                        chat_id=ask.chat_id,
                        message_id=ask.message_id,
                        caption=text,
                        reply_markup=render.question_keyboard(ask),
                        rate_limit_args=DROPPABLE,
                    )
                else:
                    await self._bot.edit_message_text(
                        text,
                        chat_id=ask.chat_id,
                        message_id=ask.message_id,
                        reply_markup=render.question_keyboard(ask),
                        rate_limit_args=DROPPABLE,
                    )
            except (RequestDropped, SendingStopped):
                count.dirty, count.last_edit = True, previous  # no room now: next tick
            except TelegramError as error:
                # Not modified, deleted, or the bot was removed: the count is cosmetic.
                log.info("live count of ask %s not updated: %s", ask.id, error.message)
