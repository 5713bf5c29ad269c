"""Telegram handlers: parse the update, call one use case, render the result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from telegram import Update
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot import metrics
from bot.callback_data import EXAM_DATA, FORGET_DATA, QUIZ_ME_DATA, REPORT_DATA
from bot.callback_data.links import REVIEW_PAYLOAD, start_pattern
from bot.handlers.answers import AnswerHandlers
from bot.handlers.chat_events import ChatEventHandlers
from bot.handlers.commands import CommandHandlers
from bot.handlers.errors import log_error
from bot.handlers.exams import ExamHandlers
from bot.handlers.forget import ForgetHandlers
from bot.handlers.reports import ReportHandlers
from bot.handlers.review import ReviewHandlers
from bot.handlers.settings import SettingsHandlers
from bot.handlers.topics import TopicHandlers

# Commands run from new messages only: an edited `/quiz` must not ask a second question.
NEW_MESSAGES = filters.UpdateType.MESSAGE
# Whatever else a user writes to the bot in private gets a hint instead of silence.
PRIVATE_OTHER = filters.ChatType.PRIVATE & NEW_MESSAGES & ~filters.StatusUpdate.ALL
REVIEW_LINK = NEW_MESSAGES & filters.ChatType.PRIVATE & filters.Regex(start_pattern(REVIEW_PAYLOAD))
# Plain text in private may be the comment of a learner's report (else it gets the hint too).
PRIVATE_TEXT = filters.ChatType.PRIVATE & NEW_MESSAGES & filters.TEXT & ~filters.COMMAND


@dataclass(frozen=True)
class Handlers:
    commands: CommandHandlers
    settings: SettingsHandlers
    answers: AnswerHandlers
    events: ChatEventHandlers
    reports: ReportHandlers
    review: ReviewHandlers
    forget: ForgetHandlers
    topics: TopicHandlers
    exams: ExamHandlers | None = None


def register_handlers(app: Application[Any, Any, Any, Any, Any, Any], handlers: Handlers) -> None:
    commands, settings = handlers.commands, handlers.settings
    # Counts every update in a group of its own before the others; awaited inline (a no-wait
    # counter is cheaper than the task that block=False would create per update).
    app.add_handler(TypeHandler(Update, metrics.update_handled), group=-1)
    # Before the general /start: the group's "Review in private" link lands here.
    app.add_handler(CommandHandler("start", handlers.review.review, filters=REVIEW_LINK))
    routes = (
        (("start",), handlers.reports.start),
        (("help",), commands.help),
        (("quiz",), commands.quiz),
        (("stop",), commands.stop),
        (("me", "score"), commands.me),
        (("leaderboard",), commands.leaderboard),
        (("timezone",), commands.timezone),
        (("daily",), settings.daily),
        (("deck",), settings.deck),
        (("review",), handlers.review.review),
        (("forgetme",), handlers.forget.ask),
        (("topics",), handlers.topics.topics),
    )
    for names, callback in routes:
        app.add_handler(CommandHandler(list(names), callback, filters=NEW_MESSAGES))
    if handlers.exams is not None:
        app.add_handler(CommandHandler("exam", handlers.exams.exam, filters=NEW_MESSAGES))
        app.add_handler(CallbackQueryHandler(handlers.exams.on_press, pattern=EXAM_DATA))
    app.add_handler(CallbackQueryHandler(handlers.reports.on_press, pattern=REPORT_DATA))
    app.add_handler(CallbackQueryHandler(handlers.review.quiz_me, pattern=QUIZ_ME_DATA))
    app.add_handler(CallbackQueryHandler(handlers.forget.on_press, pattern=FORGET_DATA))
    app.add_handler(CallbackQueryHandler(handlers.answers.on_press))
    app.add_handler(MessageHandler(PRIVATE_TEXT, handlers.reports.on_text))
    app.add_handler(MessageHandler(PRIVATE_OTHER, commands.other))
    app.add_handler(ChatMemberHandler(handlers.events.membership, ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, handlers.events.migration))
    app.add_error_handler(log_error)
