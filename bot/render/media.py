"""Questions and explanations with a deck's image: one photo message with the text as its
caption when the text fits Telegram's 1,024-character caption (with room for the marks, the
count and the result that later edits add); otherwise the photo, then the text message with
the buttons. Every later edit of the question edits what holds its text: the caption, or the
text message."""

from __future__ import annotations

from telegram import InlineKeyboardMarkup

from bot.core.model import Ask
from bot.render.calls import BotCall, Calls, EditCaption, EditText, SendPhoto, SendText
from bot.render.questions import question_message
from bot.render.text import utf16_len
from content.models import Question

CAPTION_LIMIT = 1024
# What later edits add to a question's text: the count and deadline, the marks, the tally.
CAPTION_HEADROOM = 160


def captioned(question: Question, ask: Ask, deck_title: str) -> bool:
    """Whether the question goes out as one photo message with its text as the caption."""
    if question.image is None:
        return False
    text = question_message(question, ask, deck_title)
    return utf16_len(text) + CAPTION_HEADROOM <= CAPTION_LIMIT


def post(
    question: Question,
    ask: Ask,
    deck_title: str,
    text: str,
    keyboard: InlineKeyboardMarkup | None,
) -> Calls:
    """The question's message(s); the last call's message is the one its buttons are on."""
    if question.image is None:
        return (SendText(text, keyboard),)
    if captioned(question, ask, deck_title):
        return (SendPhoto(question.image, text, keyboard),)
    return (SendPhoto(question.image), SendText(text, keyboard))


def edit(
    question: Question,
    ask: Ask,
    deck_title: str,
    message_id: int,
    text: str,
    keyboard: InlineKeyboardMarkup | None,
) -> BotCall:
    """An edit of the question's text, wherever it is. (A caption is never cut, which could
    split its HTML: a text the headroom did not foresee falls back to the question as posted.)"""
    if not captioned(question, ask, deck_title):
        return EditText(message_id, text, keyboard)
    if utf16_len(text) > CAPTION_LIMIT:
        text = question_message(question, ask, deck_title)
    return EditCaption(message_id, text, keyboard)


def fits_caption(text: str) -> bool:
    return utf16_len(text) <= CAPTION_LIMIT


def explanation(
    question: Question,
    text: str,
    keyboard: InlineKeyboardMarkup | None,
    reply_to: int | None,
) -> Calls:
    """The explanation reply, with the explanation's image when the deck gives one."""
    if question.explanation_image is None:
        return (SendText(text, keyboard, reply_to=reply_to),)
    if fits_caption(text):
        return (SendPhoto(question.explanation_image, text, keyboard, reply_to),)
    return (
        SendPhoto(question.explanation_image, reply_to=reply_to),
        SendText(text, keyboard, reply_to=reply_to),
    )
