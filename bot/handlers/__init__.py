"""Telegram handlers, one module per feature: each parses the update, calls one use case and
renders the result (replies go through the outbox). `register_handlers` routes updates to them.
"""

from __future__ import annotations

from collections.abc import Callable
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
from bot.callback_data.links import REPORT_PAYLOAD, REVIEW_PAYLOAD, start_pattern
from bot.core.catalog import Catalog
from bot.core.services import Services
from bot.handlers.admin import AdminCheck
from bot.handlers.boards import BoardHandlers
from bot.handlers.chats import ChatHandlers
from bot.handlers.common import Answering
from bot.handlers.errors import ErrorLog, StorageFailure
from bot.handlers.exams import ExamHandlers
from bot.handlers.forget import ForgetHandlers
from bot.handlers.quiz import QuizHandlers
from bot.handlers.reports import ReportHandlers
from bot.handlers.review import ReviewHandlers
from bot.handlers.settings import SettingsHandlers
from bot.handlers.start import StartHandlers
from bot.handlers.topics import TopicHandlers
from bot.workers.live_count import LiveCounts
from bot.workers.sender import Sender

# Commands run from new messages only: an edited `/quiz` must not ask a second question.
NEW_MESSAGES = filters.UpdateType.MESSAGE
PRIVATE = filters.ChatType.PRIVATE & NEW_MESSAGES
# Whatever else a user writes to the bot in private gets a hint instead of silence.
PRIVATE_OTHER = PRIVATE & ~filters.StatusUpdate.ALL
# Plain text in private may be the comment of a learner's report (else it gets the hint too).
PRIVATE_TEXT = PRIVATE & filters.TEXT & ~filters.COMMAND


def deep_link(payload: str) -> filters.BaseFilter:
    """`/start <payload>` in private (a deep link's payload, by its pattern)."""
    return PRIVATE & filters.Regex(start_pattern(payload))


@dataclass(frozen=True)
class Handlers:
    start: StartHandlers
    quiz: QuizHandlers
    boards: BoardHandlers
    settings: SettingsHandlers
    review: ReviewHandlers
    topics: TopicHandlers
    exams: ExamHandlers
    reports: ReportHandlers
    forget: ForgetHandlers
    chats: ChatHandlers
    errors: ErrorLog


def build_handlers(
    services: Services,
    catalog: Catalog,
    sender: Sender,
    live: LiveCounts,
    counts_here: Callable[[], bool],
    is_storage_failure: StorageFailure,
) -> Handlers:
    """The Telegram handlers over the core's services."""
    answering = Answering(services.replies, services.allowance)
    admin = AdminCheck()
    start = StartHandlers(chats=services.chats, answering=answering)
    return Handlers(
        start=start,
        quiz=QuizHandlers(
            quiz=services.quiz,
            rounds=services.rounds,
            answering=answering,
            admin=admin,
            live=live,
            kick=sender.kick,
            counts_here=counts_here,
        ),
        boards=BoardHandlers(
            boards=services.boards,
            topics=services.topics,
            chats=services.chats,
            answering=answering,
        ),
        settings=SettingsHandlers(
            daily=services.daily,
            chats=services.chats,
            catalog=catalog,
            answering=answering,
            admin=admin,
        ),
        review=ReviewHandlers(review=services.review, quiz=services.quiz, answering=answering),
        topics=TopicHandlers(topics=services.topics, answering=answering),
        exams=ExamHandlers(exams=services.exams, answering=answering),
        reports=ReportHandlers(
            reports=services.reports, answering=answering, admin=admin, start=start
        ),
        forget=ForgetHandlers(forget=services.forget, answering=answering),
        chats=ChatHandlers(chats=services.chats, gone=services.outbox.chat_gone, kick=sender.kick),
        errors=ErrorLog(is_storage_failure),
    )


def register_handlers(app: Application[Any, Any, Any, Any, Any, Any], handlers: Handlers) -> None:
    # Counts every update in a group of its own before the others; awaited inline (a no-wait
    # counter is cheaper than the task that block=False would create per update).
    app.add_handler(TypeHandler(Update, metrics.update_handled), group=-1)
    # Deep links first, each by its payload's pattern; then the plain /start.
    app.add_handler(CommandHandler("start", handlers.review.review, deep_link(REVIEW_PAYLOAD)))
    app.add_handler(CommandHandler("start", handlers.reports.from_link, deep_link(REPORT_PAYLOAD)))
    routes = (
        (("start", "help"), handlers.start.help),
        (("quiz",), handlers.quiz.quiz),
        (("stop",), handlers.quiz.stop),
        (("me", "score"), handlers.boards.me),
        (("leaderboard",), handlers.boards.leaderboard),
        (("timezone",), handlers.settings.timezone),
        (("daily",), handlers.settings.daily),
        (("deck",), handlers.settings.deck),
        (("review",), handlers.review.review),
        (("forgetme",), handlers.forget.ask),
        (("topics",), handlers.topics.topics),
        (("exam",), handlers.exams.exam),
    )
    for names, callback in routes:
        app.add_handler(CommandHandler(list(names), callback, filters=NEW_MESSAGES))
    app.add_handler(CallbackQueryHandler(handlers.exams.on_press, pattern=EXAM_DATA))
    app.add_handler(CallbackQueryHandler(handlers.reports.on_press, pattern=REPORT_DATA))
    app.add_handler(CallbackQueryHandler(handlers.review.quiz_me, pattern=QUIZ_ME_DATA))
    app.add_handler(CallbackQueryHandler(handlers.forget.on_press, pattern=FORGET_DATA))
    # Letters and `Next ▶`, and every press no other handler took (refused politely).
    app.add_handler(CallbackQueryHandler(handlers.quiz.on_press))
    app.add_handler(MessageHandler(PRIVATE_TEXT, handlers.reports.on_text))
    app.add_handler(MessageHandler(PRIVATE_OTHER, handlers.start.other))
    app.add_handler(ChatMemberHandler(handlers.chats.membership, ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, handlers.chats.migration))
    app.add_error_handler(handlers.errors)
