"""The bot added to or removed from a chat, and groups becoming supergroups."""

from __future__ import annotations

import logging

from telegram import ChatMember, Update
from telegram.ext import ContextTypes

from bot.core.service import QuizService
from bot.handlers.common import chat_ref

log = logging.getLogger(__name__)

GONE = {ChatMember.LEFT, ChatMember.BANNED}


class ChatEventHandlers:
    def __init__(self, quiz: QuizService) -> None:
        self.service = quiz

    async def membership(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        change = update.my_chat_member
        if change is None:
            return
        if change.new_chat_member.status in GONE:
            log.info("removed from chat %s; its history is kept", change.chat.id)
            await self.service.chat_removed(change.chat.id)
        else:
            await self.service.chat_joined(chat_ref(change.chat))

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
        log.info("chat %s became supergroup %s; moving its data", old, new)
        await self.service.move_chat(old, new)
