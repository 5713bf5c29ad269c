"""Texts and the confirmation buttons of `/forgetme`."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callback_data import ForgetButton

CONFIRM = (
    "🗑 <b>Delete everything quizbot keeps about you?</b>\n\n"
    "Your answers and scores in every chat, what you missed and when it is due for review, "
    "your mock exams, your reports on questions and your name. Leaderboards stop counting "
    "you. This cannot be undone."
)
IN_PRIVATE = "🗑 /forgetme works in our private chat, where only you can confirm it."
DONE = "✅ Done: quizbot no longer keeps any answers, scores, reviews, exams or name of yours."
KEPT = "Nothing was deleted."
NOT_YOURS = "This button is not yours."


def confirm_keyboard() -> InlineKeyboardMarkup:
    yes = ForgetButton(confirm=True).encode()
    no = ForgetButton(confirm=False).encode()
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton("Delete my data", callback_data=yes),
                InlineKeyboardButton("Cancel", callback_data=no),
            ]
        ]
    )
