"""Performing one owed message: its renderer's Bot API calls, made in order, and the outcome
reported to the outbox (one place for every kind: retries, 403, group → supergroup)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta
from enum import Enum
from pathlib import Path
from typing import Any

from telegram import Message, ReplyParameters
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
)
from telegram.ext import ExtBot

from bot import metrics
from bot.core.delivery import Outbox, Shown
from bot.render.calls import (
    BotCall,
    EditCaption,
    EditKeyboard,
    EditText,
    NoRendererError,
    RenderContext,
    SendPhoto,
    SendText,
    calls_for,
)
from bot.transport.ratelimit import RequestDropped, SendingStopped
from bot.workers.photos import Photos

log = logging.getLogger(__name__)

# Edits that find the message already as wanted, or gone, have nothing left to do.
_EDIT_SETTLED = ("message is not modified", "message to edit not found")
BULK: dict[str, Any] = {"bulk": True}
DROPPABLE: dict[str, Any] = {"droppable": True}


class Outcome(Enum):
    DONE = "done"  # sent, settled or given up: the next item may go
    RETRY = "retry"  # will be tried again later: what depends on it waits too
    GONE = "gone"  # the bot can no longer write to the chat


@dataclass(frozen=True)
class Moved:
    chat_id: int  # the group became this supergroup: its work moved there


def _seconds(value: int | timedelta) -> float:
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


def _settled(call: BotCall, error: BadRequest) -> bool:
    return not isinstance(call, SendText | SendPhoto) and any(
        text in error.message.lower() for text in _EDIT_SETTLED
    )


class CallRunner:
    def __init__(self, bot: ExtBot[Any], outbox: Outbox, images: Path) -> None:
        """`images`: the folder the decks' image paths are relative to."""
        self._bot = bot
        self._outbox = outbox
        self._photos = Photos(bot, images)
        # An item's messages already sent by a try that failed later on (a question's photo,
        # then its text): by effect id, the call's place, the call and its message id. The
        # retry skips them, so the learner does not get the photo twice.
        self._sent: dict[int, dict[int, tuple[BotCall, int]]] = {}

    def _context(self) -> RenderContext:
        return RenderContext(bot_username=self._bot.username)

    async def perform(self, item: Shown) -> Outcome | Moved:
        """Send one owed message and report to the outbox how it went."""
        outcome = await self._perform(item)
        if outcome is not Outcome.RETRY:
            self._sent.pop(item.effect.id, None)
        return outcome

    async def _perform(self, item: Shown) -> Outcome | Moved:
        chat_id = item.effect.chat_id
        try:
            message_id = await self._run(item)
        except NoRendererError as error:  # a bug: said once, and the chat's queue goes on
            log.exception("chat %s: %s cannot be shown", chat_id, item.effect.kind)
            await self._outbox.permanent(item, str(error))
        except SendingStopped:  # not sent: it stays owed for the next start, never twice
            return Outcome.RETRY
        except RequestDropped:
            await self._outbox.delivered(item)  # cosmetic, and no room for it: skip it
        except RetryAfter as error:
            await self._outbox.transient(item, error.message, _seconds(error.retry_after))
            return Outcome.RETRY
        except Forbidden as error:
            await self._outbox.chat_gone(chat_id, error.message)
            return Outcome.GONE
        except ChatMigrated as error:
            await self._outbox.chat_moved(chat_id, error.new_chat_id)
            return Moved(error.new_chat_id)
        except BadRequest as error:
            await self._outbox.permanent(item, error.message)
        except NetworkError as error:  # 5xx, time-outs and dropped connections
            await self._outbox.transient(item, error.message)
            return Outcome.RETRY
        except TelegramError as error:
            await self._outbox.permanent(item, error.message)
        else:
            await self._outbox.delivered(item, message_id)
            metrics.owed_sent(item.effect.kind)
        return Outcome.DONE

    async def _run(self, item: Shown) -> int | None:
        """Make the item's calls in order; the message id of the last one that has one."""
        message_id: int | None = None
        sent_before = self._sent.setdefault(item.effect.id, {})
        for place, call in enumerate(calls_for(item, self._context())):
            done = sent_before.get(place)
            if done is not None and done[0] == call:
                message_id = done[1]
                continue
            try:
                sent = await self._call(item, call)
            except BadRequest as error:
                if _settled(call, error):
                    continue
                if isinstance(call, EditText | EditKeyboard | EditCaption) and call.optional:
                    log.info("chat %s: edit skipped: %s", item.effect.chat_id, error.message)
                    continue
                raise
            if isinstance(sent, Message):
                message_id = sent.message_id
                if isinstance(call, SendText | SendPhoto):
                    sent_before[place] = (call, message_id)
        return message_id

    async def _call(self, item: Shown, call: BotCall) -> Message | bool:
        effect = item.effect
        args = BULK if effect.bulk else None
        match call:
            case SendPhoto(image=image, caption=caption, keyboard=keyboard, reply_to=reply_to):
                return await self._photos.send(
                    effect.chat_id,
                    image,
                    caption=caption,
                    keyboard=keyboard,
                    thread_id=effect.thread_id,
                    reply=_reply(reply_to),
                    rate_limit_args=args,
                )
            case EditCaption(message_id=message_id, caption=caption, keyboard=keyboard):
                return await self._bot.edit_message_caption(
                    chat_id=effect.chat_id,
                    message_id=message_id,
                    caption=caption,
                    reply_markup=keyboard,
                    rate_limit_args=args,
                )
            case SendText(text=text, keyboard=keyboard, reply_to=reply_to):
                return await self._bot.send_message(
                    effect.chat_id,
                    text,
                    message_thread_id=effect.thread_id,
                    reply_parameters=_reply(reply_to),
                    reply_markup=keyboard,
                    rate_limit_args=args,
                )
            case EditText(message_id=message_id, text=text, keyboard=keyboard):
                return await self._bot.edit_message_text(
                    text,
                    chat_id=effect.chat_id,
                    message_id=message_id,
                    reply_markup=keyboard,
                    rate_limit_args=args,
                )
            case EditKeyboard(message_id=message_id, keyboard=keyboard, droppable=droppable):
                return await self._bot.edit_message_reply_markup(
                    chat_id=effect.chat_id,
                    message_id=message_id,
                    reply_markup=keyboard,
                    rate_limit_args=DROPPABLE if droppable else args,
                )


def _reply(reply_to: int | None) -> ReplyParameters | None:
    if reply_to is None:
        return None
    return ReplyParameters(reply_to, allow_sending_without_reply=True)
