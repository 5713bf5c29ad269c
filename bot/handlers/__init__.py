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

from bot.core.service import QuizService
from bot.handlers.answers import AnswerHandlers
from bot.handlers.chat_events import ChatEventHandlers
from bot.handlers.commands import CommandHandlers
from bot.handlers.errors import log_error
from bot.live_count import LiveCounts


def register_handlers(app: Application, quiz: QuizService, live: LiveCounts) -> CommandHandlers:  # type: ignore[type-arg]
    commands = CommandHandlers(quiz)
    events = ChatEventHandlers(quiz)
    app.add_handler(CommandHandler(["start", "help"], commands.help))
    app.add_handler(CommandHandler("quiz", commands.quiz))
    app.add_handler(CommandHandler(["me", "score"], commands.me))
    app.add_handler(CommandHandler("leaderboard", commands.leaderboard))
    app.add_handler(CommandHandler("timezone", commands.timezone))
    app.add_handler(CallbackQueryHandler(AnswerHandlers(quiz, live).on_press))
    app.add_handler(ChatMemberHandler(events.membership, ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, events.migration))
    app.add_error_handler(log_error)
    return commands
