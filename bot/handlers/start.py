"""`/start` and `/help`: the greeting with the deck and the commands, and a hint for anything
else a user writes in private. `/start` with a deep link's payload is routed to its feature
(reports, review) by the payload's own pattern; see `register_handlers`."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot.core.chats import ChatService
from bot.handlers.common import Answering
from bot.render import commands


class StartHandlers:
    def __init__(self, *, chats: ChatService, answering: Answering) -> None:
        self._chats = chats
        self._answering = answering

    async def help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """`/start` (plain, or with a payload no feature takes) and `/help`."""
        message = update.effective_message
        if message is None or not await self._answering.allowed(message):
            return
        deck = await self._chats.deck_for(message.chat_id)
        await self._answering.reply(message, commands.help_message(deck), quote=False)

    async def other(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Anything else in a private chat (text, an unknown command, a sticker): a hint."""
        message = update.effective_message
        if message is not None:
            await self._answering.reply(message, commands.NOT_A_COMMAND)
