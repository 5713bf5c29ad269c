"""Telegram handlers: parse the update, call the quiz core, render the result."""

from __future__ import annotations

from telegram.ext import Application, CallbackQueryHandler, CommandHandler

from bot.core.service import QuizService
from bot.handlers.answers import AnswerHandlers
from bot.handlers.commands import CommandHandlers
from bot.handlers.errors import log_error


def register_handlers(app: Application, quiz: QuizService) -> None:  # type: ignore[type-arg]
    commands = CommandHandlers(quiz)
    app.add_handler(CommandHandler(["start", "help"], commands.help))
    app.add_handler(CommandHandler("quiz", commands.quiz))
    app.add_handler(CommandHandler(["me", "score"], commands.me))
    app.add_handler(CallbackQueryHandler(AnswerHandlers(quiz).on_press))
    app.add_error_handler(log_error)
