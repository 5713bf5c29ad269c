"""Texts of commands and settings: the command menu, /help, /timezone, the hint for anything
else, and what a member is told when they send too many commands or an admin check fails."""

from __future__ import annotations

from html import escape

from telegram import BotCommand

from bot.core.model import UserStats
from content.models import Deck

COMMANDS: tuple[tuple[str, str], ...] = (
    ("quiz", "Get a question; /quiz 5 for a round of five, /quiz 5 TOPIC from one topic"),
    ("review", "Go over the questions you missed, when they are due"),
    ("topics", "Your mastery of each topic, weakest first, and reviews due"),
    ("exam", "A timed practice exam (private chat); /exam 10 for ten questions"),
    ("me", "Your score in this chat"),
    ("leaderboard", "Top 10 this week (or: month, all)"),
    ("stop", "End the running round"),
    ("daily", "A question every day: /daily 09:00 Europe/Berlin (admins)"),
    ("deck", "Show the decks or switch: /deck ID (admins)"),
    ("timezone", "Show or set the chat's time zone (admins)"),
    ("help", "What this bot does and its commands"),
    ("forgetme", "Delete everything quizbot keeps about you (private chat)"),
)


def bot_commands() -> list[BotCommand]:
    return [BotCommand(name, description) for name, description in COMMANDS]


def help_message(deck: Deck) -> str:
    lines = [
        "👋 <b>quizbot</b> helps you prepare for certification exams with multiple-choice "
        "questions. Press a letter to answer; every answer comes with its explanation, and "
        "your scores are kept per chat.",
        "",
        f"Current deck: <b>{escape(deck.title)}</b> ({len(deck.questions)} questions)",
        "",
        "<b>Commands</b>",
    ]
    lines += [f"/{name} — {escape(description)}" for name, description in COMMANDS]
    return "\n".join(lines)


def stats_message(stats: UserStats) -> str:
    if stats.answered == 0:
        return "You haven't answered any questions here yet. Send /quiz to start."
    return (
        "📊 <b>Your score here</b>\n"
        f"Answered: <b>{stats.answered}</b>\n"
        f"Correct: <b>{stats.correct}</b>\n"
        f"Accuracy: <b>{stats.accuracy:.0%}</b>"
    )


def timezone_status(zone_key: str) -> str:
    return (
        f"This chat's time zone is {escape(zone_key)}.\n"
        "Usage: /timezone Area/City, for example /timezone Europe/Berlin"
    )


def timezone_set(zone_key: str) -> str:
    return f"🕓 Time zone set to {escape(zone_key)}: weeks start Monday 00:00 there."


NOT_A_COMMAND = "I answer commands: /quiz for a question, /quiz 5 for a round, /help for the rest."


SLOW_DOWN = "⏳ Easy — a few commands a minute each, please. I'll answer again in a minute."
ADMINS_ONLY = "Only this chat's admins can change its settings."
ADMIN_CHECK_FAILED = (
    "⚠️ Telegram did not answer when I checked that you are an admin here, so nothing was "
    "changed. Please try again in a moment."
)
