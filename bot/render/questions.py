"""Texts and keyboards the bot sends, in Telegram HTML."""

from __future__ import annotations

from html import escape

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callback_data import AnswerButton
from bot.core.model import Ask, letter
from bot.render.text import MESSAGE_LIMIT, utf16_len
from content.models import Question


def header(question: Question, deck_title: str) -> str:
    return (
        f"❓ <b>{escape(deck_title)}</b> · <i>{escape(question.topic)}</i>\n\n"
        f"<b>{escape(question.text)}</b>"
    )


def option_line(question: Question, ask: Ask, position: int) -> str:
    option = question.options[ask.option_order[position]]
    return f"<b>{letter(position)})</b> {escape(option)}"


def question_message(question: Question, ask: Ask, deck_title: str) -> str:
    """The question and every option in full, lettered; buttons carry only the letters."""
    options = "\n".join(option_line(question, ask, p) for p in range(len(ask.option_order)))
    return f"{header(question, deck_title)}\n\n{options}"


def question_keyboard(ask: Ask) -> InlineKeyboardMarkup:
    buttons = [
        InlineKeyboardButton(letter(p), callback_data=AnswerButton(ask.id, p).encode())
        for p in range(len(ask.option_order))
    ]
    return InlineKeyboardMarkup([buttons])


def answered_message(question: Question, ask: Ask, chosen: int, deck_title: str) -> str:
    """The question after a private answer: the right option and the chosen one marked."""
    lines = []
    for position in range(len(ask.option_order)):
        line = option_line(question, ask, position)
        if position == ask.right_position:
            line = f"✅ {line}"
        elif position == chosen:
            line = f"❌ {line}"
        if position == chosen:
            line += "  ← <i>your answer</i>"
        lines.append(line)
    return f"{header(question, deck_title)}\n\n" + "\n".join(lines)


def result_toast(ask: Ask, correct: bool) -> str:
    return "✅ Correct" if correct else f"❌ Not quite — it was {letter(ask.right_position)}"


def explanation_block(question: Question, room: int = MESSAGE_LIMIT) -> str:
    """The explanation, and the deck's note on the question when one fits in `room`."""
    block = f"💡 {escape(question.explanation)}"
    if question.note:
        noted = f"{block}\n\n📝 <i>{escape(question.note)}</i>"
        if utf16_len(noted) <= room:
            return noted
    return block


def explanation_message(question: Question, ask: Ask, correct: bool) -> str:
    right = f"<b>{letter(ask.right_position)})</b> {escape(question.right_options[0])}"
    verdict = "✅ <b>Correct!</b>" if correct else f"❌ <b>Not quite.</b> The answer is {right}"
    room = MESSAGE_LIMIT - utf16_len(verdict) - 2
    return f"{verdict}\n\n{explanation_block(question, room)}"


def already_answered_toast(position: int) -> str:
    return f"You already answered {letter(position)}"


def too_late_toast(ask: Ask) -> str:
    return f"This question has closed — the answer was {letter(ask.right_position)}."


INVALID_BUTTON_ALERT = (
    "Sorry, this button doesn't belong to a question I can take answers for. "
    "Send /quiz for a new one."
)


STILL_OPEN = (
    "❓ A question is still open here — answer that one first (it's the message I replied to)."
)


def notice(text: str) -> str:
    return escape(text)
