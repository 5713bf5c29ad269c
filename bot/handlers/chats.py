"""A chat's life: the bot added to or removed from it, and a group becoming a supergroup."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from telegram import ChatMember, Update
from telegram.ext import ContextTypes

from bot.core.chats import ChatService
from bot.handlers.common import chat_ref

log = logging.getLogger(__name__)

GONE = {ChatMember.LEFT, ChatMember.BANNED}


class ChatHandlers:
    def __init__(
        self,
        *,
        chats: ChatService,
        gone: Callable[[int, str], Awaitable[None]],
        kick: Callable[[int], None],
    ) -> None:
        """`gone`: what a 403 does too (nothing more is sent or scheduled; history kept)."""
        self._chats = chats
        self._gone = gone
        self._kick = kick

    async def membership(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        change = update.my_chat_member
        if change is None:
            return
        if change.new_chat_member.status in GONE:
            log.info("removed from chat %s; its history is kept", change.chat.id)
            await self._gone(change.chat.id, f"the bot was {change.new_chat_member.status}")
        else:
            await self._chats.joined(chat_ref(change.chat))

    async def migration(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None:
            return
        # Telegram says it twice: "migrated to" in the old group, "migrated from" in the new.
        if message.migrate_to_chat_id:
            old, new = message.chat_id, message.migrate_to_chat_id
        elif message.migrate_from_chat_id:
            old, new = message.migrate_from_chat_id, message.chat_id
        else:
            return
        if await self._chats.moved(old, new):
            log.info("chat %s became supergroup %s; its data moved", old, new)
            self._kick(new)  # what the old group was owed goes out at the new id
