"""Owed messages whose text was rendered when they were owed: notices and replies."""

from __future__ import annotations

from telegram import InlineKeyboardMarkup

from bot.core.delivery import Notice, Reply
from bot.render import questions
from bot.render.calls import Calls, EditKeyboard, EditText, RenderContext, SendText, renders


def keyboard_json(keyboard: InlineKeyboardMarkup | None) -> dict[str, object] | None:
    """A keyboard as the JSON a reply stores (Telegram's own form of it)."""
    return None if keyboard is None else keyboard.to_dict()


def keyboard_of(data: object) -> InlineKeyboardMarkup | None:
    if not isinstance(data, dict):
        return None
    return InlineKeyboardMarkup.de_json(data, None)


@renders(Notice)
def noticed(shown: Notice, context: RenderContext) -> Calls:
    return (SendText(questions.notice(shown.text)),)


@renders(Reply)
def replied(shown: Reply, context: RenderContext) -> Calls:
    keyboard = keyboard_of(shown.keyboard)
    if shown.edit is not None and shown.keyboard_only:
        return (EditKeyboard(shown.edit, keyboard),)
    if shown.edit is not None:
        return (EditText(shown.edit, shown.text, keyboard),)
    return (SendText(shown.text, keyboard, reply_to=shown.reply_to),)
