"""Texts for group play: the open question with its live count, alerts, and the reveal."""

from __future__ import annotations

from datetime import datetime
from html import escape
from zoneinfo import ZoneInfo

from bot.core.model import Ask, Tally, letters
from bot.core.quiz import PostQuestion, ShowReveal
from bot.render import media
from bot.render.calls import Calls, EditCaption, RenderContext, renders
from bot.render.questions import (
    explanation_block,
    header,
    option_line,
    pick_hint,
    question_keyboard,
    question_message,
)
from bot.render.reports import reveal_keyboard
from bot.render.text import MESSAGE_LIMIT, utf16_len
from content.models import Question

ALERT_LIMIT = 200


def _closes_line(closes_at: datetime | None, zone: ZoneInfo) -> str:
    if closes_at is None:
        return ""
    local = closes_at.astimezone(zone)
    return f" · ⏳ open until {local:%H:%M} {escape(zone.key)}"


def open_question_message(
    question: Question, ask: Ask, deck_title: str, answered: int, zone: ZoneInfo
) -> str:
    """The question while it takes answers: every option in full (and, for a "choose N"
    question, how to answer it), and how many answered."""
    options = "\n".join(option_line(question, ask, p) for p in range(len(ask.option_order)))
    hint = f"\n\n{pick_hint(ask)}" if ask.is_multi else ""
    return (
        f"{header(question, deck_title)}\n\n{options}{hint}\n\n"
        f"👥 {answered} answered{_closes_line(ask.closes_at, zone)}"
    )


def cut(text: str, limit: int = ALERT_LIMIT) -> str:
    """`text` within `limit` characters, ending in '…' when it had to be cut."""
    if len(text) <= limit:
        return text
    return text[: limit - 1].rstrip() + "…"


def answer_alert(question: Question, ask: Ask, correct: bool) -> str:
    """The private alert a member gets for their press: result and explanation (plain text)."""
    verdict = "✅ Correct!" if correct else f"❌ Not quite — it was {letters(ask.right_positions)}."
    return cut(f"{verdict}\n\n{question.explanation}")


def reveal_message(
    question: Question, ask: Ask, deck_title: str, tally: Tally, *, explain: bool = True
) -> str:
    """The question after it closed: right option, explanation, and how the group did."""
    lines = []
    for position in range(len(ask.option_order)):
        line = option_line(question, ask, position)
        lines.append(f"✅ {line}" if position in ask.right_positions else line)
    result = f"👥 {tally.answered} answered · {tally.correct} right"
    if tally.first_right is not None:
        result += f"\n🥇 First right: {escape(tally.first_right.display_name)}"
    elif tally.answered:
        result += "\nNobody got it this time."
    top = f"{header(question, deck_title)}\n\n" + "\n".join(lines)
    if not explain:
        return f"{top}\n\n{result}"
    room = MESSAGE_LIMIT - utf16_len(top) - utf16_len(result) - 4
    return f"{top}\n\n{explanation_block(question, room)}\n\n{result}"


@renders(PostQuestion)
def posted(shown: PostQuestion, context: RenderContext) -> Calls:
    """A question as it is posted: in a group with its count and deadline, in private plain."""
    ask = shown.ask
    if ask.closes_at is None:
        text = question_message(shown.question, ask, shown.deck_title)
    else:
        text = open_question_message(
            shown.question, ask, shown.deck_title, shown.answered, shown.zone
        )
    return media.post(shown.question, ask, shown.deck_title, text, question_keyboard(ask))


@renders(ShowReveal)
def revealed(shown: ShowReveal, context: RenderContext) -> Calls:
    ask = shown.ask
    if ask.message_id is None:
        return ()
    question, keyboard = shown.question, reveal_keyboard(context.bot_username, ask)
    text = reveal_message(question, ask, shown.deck_title, shown.tally)
    if not media.captioned(question, ask, shown.deck_title) or media.fits_caption(text):
        return (media.edit(question, ask, shown.deck_title, ask.message_id, text, keyboard),)
    # A caption too short for the explanation: the marks and the tally in it, the
    # explanation (and its image, if any) as a reply.
    marked = reveal_message(question, ask, shown.deck_title, shown.tally, explain=False)
    explained = media.explanation(question, explanation_block(question), None, ask.message_id)
    return (EditCaption(ask.message_id, marked, keyboard), *explained)
