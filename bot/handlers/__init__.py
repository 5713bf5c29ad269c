"""Telegram handlers: parse the update, call the quiz core, render the result."""

from __future__ import annotations

from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    MessageHandler,
    filters,
)

from bot.core.daily import DailyService
from bot.core.rounds import RoundService
from bot.core.service import QuizService
from bot.handlers.answers import AnswerHandlers
from bot.handlers.chat_events import ChatEventHandlers
from bot.handlers.commands import CommandHandlers
from bot.handlers.errors import log_error
from bot.handlers.settings import SettingsHandlers
from bot.jobs import Ticker
from bot.live_count import LiveCounts
from bot.posting import Poster


def register_handlers(
    app: Application,  # type: ignore[type-arg]
    quiz: QuizService,
    rounds: RoundService,
    live: LiveCounts,
    poster: Poster,
    ticker: Ticker,
    daily: DailyService,
) -> None:
    commands = CommandHandlers(quiz, rounds, poster, ticker, daily)
    settings = SettingsHandlers(daily)
    events = ChatEventHandlers(quiz)
    app.add_handler(CommandHandler(["start", "help"], commands.help))
    app.add_handler(CommandHandler("quiz", commands.quiz))
    app.add_handler(CommandHandler(["me", "score"], commands.me))
    app.add_handler(CommandHandler("leaderboard", commands.leaderboard))
    app.add_handler(CommandHandler("timezone", commands.timezone))
    app.add_handler(CommandHandler("stop", commands.stop))
    app.add_handler(CommandHandler("daily", settings.daily_command))
    app.add_handler(CommandHandler("deck", settings.deck))
    app.add_handler(CallbackQueryHandler(AnswerHandlers(quiz, rounds, live, poster).on_press))
    app.add_handler(ChatMemberHandler(events.membership, ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, events.migration))
    app.add_error_handler(log_error)
