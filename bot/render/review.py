"""Texts and buttons of `/review`."""

from __future__ import annotations

from datetime import datetime
from html import escape

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callback_data import QuizMeButton
from bot.callback_data.links import ReviewLink, link_url
from bot.core.model import Card
from bot.render.rounds import next_due_line
from bot.render.text import shorten

IN_PRIVATE = (
    "🧠 Reviews are personal: they go over the questions <i>you</i> missed, in any chat. "
    "Open our private chat to start."
)


def nothing_due(next_due: datetime | None) -> str:
    return f"✅ Nothing to review right now.\n{next_due_line(next_due)}"


def quiz_me_keyboard() -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton("❓ Ask me a question", callback_data=QuizMeButton().encode())]]
    )


def private_link_keyboard(bot_username: str) -> InlineKeyboardMarkup:
    url = link_url(bot_username, ReviewLink())
    return InlineKeyboardMarkup([[InlineKeyboardButton("🧠 Review in private", url=url)]])


def leech_lines(leeches: list[tuple[str, Card]]) -> str:
    """`/me`: the questions missed so often that repeating them is not working."""
    if not leeches:
        return ""
    shown = "\n".join(
        f"• {escape(shorten(text, 120))} <i>(missed {card.lapses}×)</i>"
        for text, card in leeches[:5]
    )
    more = f"\n…and {len(leeches) - 5} more" if len(leeches) > 5 else ""
    return (
        "\n\n🩹 <b>Leeches</b>: missed 8 times or more. Read the explanation and its source "
        f"instead of drilling them:\n{shown}{more}"
    )
