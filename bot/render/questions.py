"""Texts and keyboards the bot sends, in Telegram HTML."""

from __future__ import annotations

from html import escape

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callback_data import AnswerButton, PickButton, SubmitButton
from bot.core.model import Ask, letter, letters
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
    text = f"{header(question, deck_title)}\n\n{options}"
    if ask.is_multi:
        text += f"\n\n{pick_hint(ask)}"
    return text


def pick_hint(ask: Ask) -> str:
    return f"☑️ <i>Pick {ask.picks} letters, then press {SUBMIT}.</i>"


SUBMIT = "Submit"


def question_keyboard(ask: Ask, picked: frozenset[int] = frozenset()) -> InlineKeyboardMarkup:
    """One button a letter (a "choose N" question: letters that toggle, `picked` shown
    ticked, and a Submit row)."""
    if not ask.is_multi:
        return InlineKeyboardMarkup(
            [
                [
                    InlineKeyboardButton(letter(p), callback_data=AnswerButton(ask.id, p).encode())
                    for p in range(len(ask.option_order))
                ]
            ]
        )
    letters_row = [
        InlineKeyboardButton(
            f"✓ {letter(p)}" if p in picked else letter(p),
            callback_data=PickButton(ask.id, p).encode(),
        )
        for p in range(len(ask.option_order))
    ]
    submit = InlineKeyboardButton(SUBMIT, callback_data=SubmitButton(ask.id).encode())
    return InlineKeyboardMarkup([letters_row, [submit]])


def answered_message(question: Question, ask: Ask, chosen: frozenset[int], deck_title: str) -> str:
    """The question after a private answer: the right options and the chosen ones marked."""
    lines = []
    for position in range(len(ask.option_order)):
        line = option_line(question, ask, position)
        if position in ask.right_positions:
            line = f"✅ {line}"
        elif position in chosen:
            line = f"❌ {line}"
        if position in chosen:
            line += "  ← <i>your answer</i>"
        lines.append(line)
    return f"{header(question, deck_title)}\n\n" + "\n".join(lines)


def result_toast(ask: Ask, correct: bool) -> str:
    return "✅ Correct" if correct else f"❌ Not quite — it was {letters(ask.right_positions)}"


def picks_toast(ask: Ask, picked: frozenset[int]) -> str:
    """After a pick: what is picked now, and what is left to do."""
    if not picked:
        return f"Nothing picked. Pick {ask.picks}, then {SUBMIT}."
    left = ask.picks - len(picked)
    then = f"pick {left} more" if left > 0 else f"press {SUBMIT}" if left == 0 else "unpick some"
    return f"Picked {letters(picked)}: {then}."


def wrong_count_alert(ask: Ask, picked: frozenset[int]) -> str:
    return f"Pick exactly {ask.picks} letters before {SUBMIT} (picked: {len(picked)})."


def explanation_block(question: Question, room: int = MESSAGE_LIMIT) -> str:
    """The explanation, and the deck's note on the question when one fits in `room`."""
    block = f"💡 {escape(question.explanation)}"
    if question.note:
        noted = f"{block}\n\n📝 <i>{escape(question.note)}</i>"
        if utf16_len(noted) <= room:
            return noted
    return block


def explanation_message(question: Question, ask: Ask, correct: bool) -> str:
    right = ", ".join(
        f"<b>{letter(p)})</b> {escape(question.options[ask.option_order[p]])}"
        for p in sorted(ask.right_positions)
    )
    answer_is = "The answer is" if not ask.is_multi else "The answers are"
    verdict = "✅ <b>Correct!</b>" if correct else f"❌ <b>Not quite.</b> {answer_is} {right}"
    room = MESSAGE_LIMIT - utf16_len(verdict) - 2
    return f"{verdict}\n\n{explanation_block(question, room)}"


def already_answered_toast(positions: frozenset[int]) -> str:
    return f"You already answered {letters(positions)}"


def too_late_toast(ask: Ask) -> str:
    return f"This question has closed — the answer was {letters(ask.right_positions)}."


INVALID_BUTTON_ALERT = (
    "Sorry, this button doesn't belong to a question I can take answers for. "
    "Send /quiz for a new one."
)


STILL_OPEN = (
    "❓ A question is still open here — answer that one first (it's the message I replied to)."
)


def notice(text: str) -> str:
    return escape(text)
