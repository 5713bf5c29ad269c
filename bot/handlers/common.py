"""What every handler shares: Telegram objects as the core's types, replies through the outbox,
answering a press, and the gate a group command passes first."""

from __future__ import annotations

import asyncio
import logging

from telegram import CallbackQuery, Chat, InlineKeyboardMarkup, Message, User
from telegram.constants import ChatType
from telegram.error import BadRequest, NetworkError, RetryAfter, TelegramError

from bot.core.delivery import Replies
from bot.core.inbox.allowance import CommandAllowance, Verdict
from bot.core.model import ChatKind, ChatRef, Player
from bot.render.commands import SLOW_DOWN
from bot.render.replies import keyboard_json

log = logging.getLogger(__name__)

# A press's answer that fails for a moment (a time-out, a 5xx) is tried again this often, after
# these pauses: the user's client shows a spinner until it is answered.
PRESS_RETRIES = (0.2, 0.5)


def chat_ref(chat: Chat) -> ChatRef:
    return ChatRef(id=chat.id, kind=ChatKind(chat.type), title=chat.title)


def player(user: User) -> Player:
    return Player(
        id=user.id, first_name=user.first_name, last_name=user.last_name, username=user.username
    )


def thread_of(message: Message) -> int | None:
    return message.message_thread_id if message.is_topic_message else None


class Answering:
    """Replies to what a user did. Each goes through the outbox: it survives a failed call
    and a restart, and a chat's replies keep their order."""

    def __init__(self, replies: Replies, allowance: CommandAllowance) -> None:
        self._replies = replies
        self._allowance = allowance

    async def reply(
        self,
        message: Message,
        text: str,
        *,
        keyboard: InlineKeyboardMarkup | None = None,
        to: int | None = None,
        quote: bool = True,
    ) -> None:
        """Answer a message in its chat and forum topic, quoting it (or message `to`)."""
        reply_to = (to if to is not None else message.message_id) if quote else None
        await self._replies.send(
            chat_ref(message.chat),
            text,
            thread_id=thread_of(message),
            reply_to=reply_to,
            keyboard=keyboard_json(keyboard),
            user_id=None if message.from_user is None else message.from_user.id,
        )

    async def send_reply(
        self,
        chat: Chat,
        text: str,
        reply_to: int | None,
        keyboard: InlineKeyboardMarkup | None = None,
    ) -> None:
        """A new message in the chat, quoting the bot's message `reply_to` (e.g. the one a
        press was on)."""
        keyboard_data = keyboard_json(keyboard)
        await self._replies.send(chat_ref(chat), text, reply_to=reply_to, keyboard=keyboard_data)

    async def edit(
        self,
        chat: Chat,
        message_id: int,
        text: str,
        keyboard: InlineKeyboardMarkup | None = None,
        *,
        user_id: int | None = None,
    ) -> None:
        """Show `text` in the bot's message `message_id` (e.g. the message a press was on)."""
        await self._replies.edit(
            chat_ref(chat), message_id, text, keyboard_json(keyboard), user_id=user_id
        )

    async def allowed(self, message: Message) -> bool:
        """Private chats answer freely; in a group a member sending too many commands is told
        once to slow down, then ignored for the rest of the minute."""
        if message.from_user is None:
            return message.chat.type == ChatType.PRIVATE
        verdict = await self._allowance.check(chat_ref(message.chat), message.from_user.id)
        if verdict is Verdict.WARN:
            await self.reply(message, SLOW_DOWN)
        return verdict is Verdict.ALLOW


async def answer_press(
    query: CallbackQuery, text: str | None = None, *, alert: bool = False
) -> None:
    """Answer a press (the toast or alert). A time-out or a 5xx is tried again at once; one that
    waited too long (the bot was down or slow) can no longer be answered: either way the press
    itself was handled, so one quiet line says so."""
    for pause in (*PRESS_RETRIES, None):
        try:
            await query.answer(text, show_alert=alert)
            return
        except BadRequest as error:
            log.info("press %s not answered: %s", query.id, error.message)
            return
        except (NetworkError, RetryAfter) as error:
            if pause is None:
                log.warning("press %s not answered: %s", query.id, error.message)
                return
            await asyncio.sleep(pause)
        except TelegramError as error:
            log.warning("press %s not answered: %s", query.id, error.message)
            return
