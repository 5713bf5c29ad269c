"""Who may change a chat's settings: its admins (asked of the Bot API), or the user alone.

The check is a call to Telegram (`getChatMember`) that a setting depends on, so a transient
failure is tried again; if Telegram still does not answer, `AdminCheckUnavailable` says so and
the handler tells the user to try again: a setting is never silently not applied.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta

from telegram import Bot, Chat, ChatMember, Message
from telegram.constants import ChatType
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter

log = logging.getLogger(__name__)

ADMIN_STATUSES = {ChatMember.ADMINISTRATOR, ChatMember.OWNER}
# Pauses before the second and third try; a 429 is waited out if it asks for at most this long.
RETRY_PAUSES = (0.3, 1.0)
LONGEST_RETRY_AFTER = 5.0


class AdminCheckUnavailableError(Exception):
    """Telegram did not answer whether the user is an admin (after retries)."""


def _seconds(value: int | timedelta) -> float:
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


class AdminCheck:
    def __init__(self, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self._sleep = sleep

    async def may_change_settings(self, message: Message, bot: Bot) -> bool:
        """Whether the sender of `message` may change its chat's settings: anyone in a private
        chat, an anonymous admin (posting as the group), else an admin or the owner."""
        if message.chat.type == ChatType.PRIVATE:
            return True
        if message.sender_chat is not None and message.sender_chat.id == message.chat_id:
            return True
        if message.from_user is None:
            return False
        return await self.is_admin(bot, message.chat_id, message.from_user.id)

    async def may_act_for(self, bot: Bot, chat: Chat, user_id: int) -> bool:
        """Whether the user may act for the chat (e.g. on its buttons): an admin of a group,
        the user of a private chat."""
        if chat.type == ChatType.PRIVATE:
            return chat.id == user_id
        return await self.is_admin(bot, chat.id, user_id)

    async def is_admin(self, bot: Bot, chat_id: int, user_id: int) -> bool:
        """A chat the bot cannot ask about (400, 403) has no admins it can confirm."""
        for pause in (*RETRY_PAUSES, None):
            try:
                member = await bot.get_chat_member(chat_id, user_id)
            except (BadRequest, Forbidden) as error:
                log.info("chat %s: cannot check user %s: %s", chat_id, user_id, error.message)
                return False
            except RetryAfter as error:
                wait = _seconds(error.retry_after)
                if pause is None or wait > LONGEST_RETRY_AFTER:
                    raise AdminCheckUnavailableError(error.message) from error
                await self._sleep(wait)
            except NetworkError as error:
                if pause is None:
                    log.warning("chat %s: admin check failed: %s", chat_id, error.message)
                    raise AdminCheckUnavailableError(error.message) from error
                await self._sleep(pause)
            else:
                return member.status in ADMIN_STATUSES
        raise AssertionError("unreachable")
