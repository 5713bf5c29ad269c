"""`/forgetme`: asks for confirmation in the private chat, then deletes the user's data."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import ContextTypes

from bot.callback_data import parse_forget_button
from bot.core.forget import ForgetService
from bot.handlers.common import reply
from bot.render import forget


class ForgetHandlers:
    def __init__(self, forget: ForgetService) -> None:
        self._forget = forget

    async def ask(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None or update.effective_user is None:
            return
        if message.chat.type != ChatType.PRIVATE:
            await reply(message, forget.IN_PRIVATE)
            return
        await message.reply_text(forget.CONFIRM, reply_markup=forget.confirm_keyboard())

    async def on_press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query, user = update.callback_query, update.effective_user
        if query is None or user is None or query.message is None:
            return
        # Only in the user's own private chat: there the chat id is the user's id.
        if query.message.chat.type != ChatType.PRIVATE or query.message.chat.id != user.id:
            await query.answer(forget.NOT_YOURS, show_alert=True)
            return
        button = parse_forget_button(query.data)
        if button is None or not button.confirm:
            await query.answer()
            await query.edit_message_text(forget.KEPT)
            return
        await self._forget.forget(user.id)
        await query.answer("Deleted")
        await query.edit_message_text(forget.DONE)
