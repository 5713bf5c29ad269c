"""`/forgetme`: asks for confirmation in the private chat, then deletes the user's data."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ChatType
from telegram.ext import ContextTypes

from bot.core.forget import ForgetService
from bot.handlers.common import reply

FORGET_YES, FORGET_NO = "forget:yes", "forget:no"
FORGET_DATA = r"^forget:(yes|no)$"
CONFIRM = (
    "🗑 <b>Delete everything quizbot keeps about you?</b>\n\n"
    "Your answers and scores in every chat, what you missed and when it is due for review, "
    "your mock exams, your reports on questions and your name. Leaderboards stop counting "
    "you. This cannot be undone."
)
IN_PRIVATE = "🗑 /forgetme works in our private chat, where only you can confirm it."
DONE = "✅ Done: quizbot no longer keeps any answers, scores, reviews, exams or name of yours."
KEPT = "Nothing was deleted."


class ForgetHandlers:
    def __init__(self, forget: ForgetService) -> None:
        self._forget = forget

    async def ask(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None or update.effective_user is None:
            return
        if message.chat.type != ChatType.PRIVATE:
            await reply(message, IN_PRIVATE)
            return
        buttons = InlineKeyboardMarkup(
            [
                [
                    InlineKeyboardButton("Delete my data", callback_data=FORGET_YES),
                    InlineKeyboardButton("Cancel", callback_data=FORGET_NO),
                ]
            ]
        )
        await message.reply_text(CONFIRM, reply_markup=buttons)

    async def on_press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query, user = update.callback_query, update.effective_user
        if query is None or user is None or query.message is None:
            return
        # Only in the user's own private chat: there the chat id is the user's id.
        if query.message.chat.type != ChatType.PRIVATE or query.message.chat.id != user.id:
            await query.answer("This button is not yours.", show_alert=True)
            return
        if query.data != FORGET_YES:
            await query.answer()
            await query.edit_message_text(KEPT)
            return
        await self._forget.forget(user.id)
        await query.answer("Deleted")
        await query.edit_message_text(DONE)
