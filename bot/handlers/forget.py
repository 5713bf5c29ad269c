"""`/forgetme`: asks for confirmation in the private chat, then deletes the user's data."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import ContextTypes

from bot.callback_data import parse_forget_button
from bot.core.forget import ForgetService
from bot.handlers.common import Answering, answer_press
from bot.render import forget


class ForgetHandlers:
    def __init__(self, *, forget: ForgetService, answering: Answering) -> None:
        self._forget = forget
        self._answering = answering

    async def ask(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None or update.effective_user is None:
            return
        if not await self._answering.allowed(message):
            return
        if message.chat.type != ChatType.PRIVATE:
            await self._answering.reply(message, forget.IN_PRIVATE)
            return
        keyboard = forget.confirm_keyboard()
        await self._answering.reply(message, forget.CONFIRM, keyboard=keyboard, quote=False)

    async def on_press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query, user = update.callback_query, update.effective_user
        if query is None or user is None or query.message is None:
            return
        # Only in the user's own private chat: there the chat id is the user's id.
        if query.message.chat.type != ChatType.PRIVATE or query.message.chat.id != user.id:
            await answer_press(query, forget.NOT_YOURS, alert=True)
            return
        chat, message_id = query.message.chat, query.message.message_id
        button = parse_forget_button(query.data)
        if button is None or not button.confirm:
            await answer_press(query)
            await self._answering.edit(chat, message_id, forget.KEPT)
            return
        await self._forget.forget(user.id)
        await answer_press(query, "Deleted")
        await self._answering.edit(chat, message_id, forget.DONE)
