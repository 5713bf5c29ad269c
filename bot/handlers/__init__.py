"""Telegram handlers: parse the update, call one use case, render the result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    MessageHandler,
    filters,
)

from bot.handlers.answers import AnswerHandlers
from bot.handlers.chat_events import ChatEventHandlers
from bot.handlers.commands import CommandHandlers
from bot.handlers.errors import log_error
from bot.handlers.settings import SettingsHandlers

# Commands run from new messages only: an edited `/quiz` must not ask a second question.
NEW_MESSAGES = filters.UpdateType.MESSAGE
# Whatever else a user writes to the bot in private gets a hint instead of silence.
PRIVATE_OTHER = filters.ChatType.PRIVATE & NEW_MESSAGES & ~filters.StatusUpdate.ALL


@dataclass(frozen=True)
class Handlers:
    commands: CommandHandlers
    settings: SettingsHandlers
    answers: AnswerHandlers
    events: ChatEventHandlers


def register_handlers(app: Application[Any, Any, Any, Any, Any, Any], handlers: Handlers) -> None:
    commands, settings = handlers.commands, handlers.settings
    routes = (
        (("start", "help"), commands.help),
        (("quiz",), commands.quiz),
        (("stop",), commands.stop),
        (("me", "score"), commands.me),
        (("leaderboard",), commands.leaderboard),
        (("timezone",), commands.timezone),
        (("daily",), settings.daily),
        (("deck",), settings.deck),
    )
    for names, callback in routes:
        app.add_handler(CommandHandler(list(names), callback, filters=NEW_MESSAGES))
    app.add_handler(CallbackQueryHandler(handlers.answers.on_press))
    app.add_handler(MessageHandler(PRIVATE_OTHER, commands.other))
    app.add_handler(ChatMemberHandler(handlers.events.membership, ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, handlers.events.migration))
    app.add_error_handler(log_error)
