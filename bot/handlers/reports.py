"""Learner reports: `⚑ Report`, `/start report-<ask>` links, reasons, comments, and `Fixed` /
`Dismiss` in the reports chat. Every reply here answers the user's own action; the report's
message to the reports chat is owed through the outbox."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from telegram import CallbackQuery, Chat, InlineKeyboardMarkup, ReplyParameters, Update, User
from telegram.constants import ChatType
from telegram.error import BadRequest
from telegram.ext import ContextTypes

from bot.callback_data import (
    ReasonButton,
    ReportButton,
    ResolveButton,
    SkipCommentButton,
    parse_report_data,
)
from bot.callback_data.links import parse_report_link
from bot.core.model import ReportStatus
from bot.core.reports.service import (
    AlreadyFiled,
    AlreadyReported,
    AlreadyResolved,
    Commented,
    CommentTooLate,
    Created,
    DailyLimit,
    Filed,
    NoSuchReport,
    NotReportable,
    QuestionGone,
    Refusal,
    ReportService,
    Resolved,
    Subject,
)
from bot.handlers.admin import is_chat_admin
from bot.handlers.common import player, reply
from bot.parsing import arguments_of
from bot.parsing.reports import clean_comment
from bot.render import reports as render_reports
from bot.workers.sender import Sender

log = logging.getLogger(__name__)

Command = Callable[[Update, ContextTypes.DEFAULT_TYPE], Awaitable[None]]
RESOLVED_TOAST = {ReportStatus.FIXED: "Marked fixed", ReportStatus.DISMISSED: "Dismissed"}


def refusal_text(outcome: Refusal, *, link: bool = False) -> str:
    match outcome:
        case NotReportable():
            return render_reports.NOT_REPORTABLE_LINK if link else render_reports.NOT_REPORTABLE
        case QuestionGone():
            return render_reports.QUESTION_GONE
        case AlreadyReported():
            return render_reports.ALREADY_REPORTED
        case DailyLimit(limit=limit):
            return render_reports.daily_limit(limit)


async def _tell(query: CallbackQuery, text: str | None = None, *, alert: bool = False) -> None:
    """Answer a press; one that waited too long can no longer be answered (it was handled)."""
    try:
        await query.answer(text, show_alert=alert)
    except BadRequest as error:
        log.info("press %s not answered: %s", query.id, error.message)


async def _edit(query: CallbackQuery, text: str, markup: InlineKeyboardMarkup | None) -> None:
    """Show the outcome in the pressed message (cosmetic: what was stored stands anyway)."""
    try:
        await query.edit_message_text(text, reply_markup=markup)
    except BadRequest as error:
        log.info("report message not edited: %s", error.message)


class ReportHandlers:
    def __init__(
        self, reports: ReportService, sender: Sender, *, greet: Command, other: Command
    ) -> None:
        """`greet` answers a plain `/start`, `other` private text that is no comment."""
        self._reports = reports
        self._sender = sender
        self._greet = greet
        self._other = other

    def _owed(self) -> None:
        """The reports chat may have a report due now."""
        if self._reports.reports_chat is not None:
            self._sender.kick(self._reports.reports_chat)

    async def start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """`/start`: a report link (from a group's closed question) opens the reason picker in
        private; anything else gets the greeting."""
        message, user = update.effective_message, update.effective_user
        link = None
        if message is not None and message.chat.type == ChatType.PRIVATE:
            link = parse_report_link(arguments_of(message.text or ""))
        if message is None or user is None or link is None:
            await self._greet(update, context)
            return
        outcome = await self._reports.start(user.id, link.ask_id)
        if not isinstance(outcome, Subject):
            await reply(message, refusal_text(outcome, link=True))
            return
        await message.reply_text(
            render_reports.picker_message(outcome),
            reply_markup=render_reports.picker_keyboard(outcome.ask.id),
            do_quote=False,
        )

    async def on_press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        data = parse_report_data(query.data)
        if query.message is None or data is None:
            await _tell(query, render_reports.NOT_REPORTABLE, alert=True)
            return
        chat, user = query.message.chat, query.from_user
        if isinstance(data, ResolveButton):
            await self._resolve(query, chat, user, data)
        elif chat.type != ChatType.PRIVATE:
            await _tell(query, render_reports.NOT_REPORTABLE, alert=True)
        elif isinstance(data, ReportButton):
            await self._report(query, chat, user, data)
        elif isinstance(data, ReasonButton):
            await self._reason(query, user, data)
        else:
            await self._skip(query, user, data)

    async def _report(
        self, query: CallbackQuery, chat: Chat, user: User, button: ReportButton
    ) -> None:
        outcome = await self._reports.start(user.id, button.ask_id, from_chat=chat.id)
        if not isinstance(outcome, Subject):
            await _tell(query, refusal_text(outcome), alert=True)
            return
        assert query.message is not None
        await query.get_bot().send_message(
            chat.id,
            render_reports.picker_message(outcome),
            reply_markup=render_reports.picker_keyboard(outcome.ask.id),
            reply_parameters=ReplyParameters(
                query.message.message_id, allow_sending_without_reply=True
            ),
        )
        await _tell(query)

    async def _reason(self, query: CallbackQuery, user: User, button: ReasonButton) -> None:
        assert query.message is not None
        outcome = await self._reports.report(
            user.id, button.ask_id, button.reason, query.message.message_id
        )
        if not isinstance(outcome, Created):
            await _tell(query, refusal_text(outcome), alert=True)
            return
        self._owed()  # a report whose comment phase this one ended
        minutes = int(self._reports.comment_window.total_seconds() // 60)
        await _edit(
            query,
            render_reports.comment_prompt(outcome.report, minutes),
            render_reports.comment_keyboard(outcome.report.id),
        )
        await _tell(query, "⚑ Report saved")

    async def _skip(self, query: CallbackQuery, user: User, button: SkipCommentButton) -> None:
        outcome = await self._reports.skip(user.id, button.report_id)
        match outcome:
            case NotReportable():
                await _tell(query, render_reports.NOT_REPORTABLE, alert=True)
            case AlreadyFiled(report=report):
                await _edit(query, render_reports.filed_prompt(report), None)
                await _tell(query, render_reports.ALREADY_FILED)
            case Filed(report=report):
                self._owed()
                await _edit(query, render_reports.filed_prompt(report), None)
                await _tell(query)

    async def _resolve(
        self, query: CallbackQuery, chat: Chat, user: User, button: ResolveButton
    ) -> None:
        if chat.id != self._reports.reports_chat:
            await _tell(query, render_reports.RESOLVE_NOT_HERE, alert=True)
            return
        if not await is_chat_admin(query.get_bot(), chat, user.id):
            await _tell(query, render_reports.RESOLVE_ADMINS_ONLY, alert=True)
            return
        outcome = await self._reports.resolve(button.report_id, button.status, user.id)
        match outcome:
            case NoSuchReport():
                await _tell(query, render_reports.NO_SUCH_REPORT, alert=True)
            case AlreadyResolved(view=view):
                await _tell(query, f"Already {view.report.status.value}.")
            case Resolved(view=view):
                text = render_reports.report_message(view, player(user).display_name)
                await _edit(query, text, None)
                await _tell(query, RESOLVED_TOAST[button.status])

    async def on_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Plain text in private: the comment of the learner's waiting report, else as any
        other private message."""
        message, user = update.effective_message, update.effective_user
        comment = None if message is None else clean_comment(message.text or "")
        if message is None or user is None or comment is None:
            await self._other(update, context)
            return
        outcome = await self._reports.comment(user.id, comment)
        match outcome:
            case Commented(report=report):
                self._owed()
                await reply(message, render_reports.COMMENT_ADDED)
                if report.prompt_message_id is not None:
                    try:  # the prompt's `Send without comment` is done with
                        await message.get_bot().edit_message_text(
                            render_reports.filed_prompt(report),
                            chat_id=message.chat_id,
                            message_id=report.prompt_message_id,
                            reply_markup=None,
                        )
                    except BadRequest as error:
                        log.info("comment prompt not edited: %s", error.message)
            case CommentTooLate():
                await reply(message, render_reports.COMMENT_TOO_LATE)
            case _:
                await self._other(update, context)
