"""Learner reports: `⚑ Report`, `/start report-<ask>` links, reasons, comments, and `Fixed` /
`Dismiss` in the reports chat. Every reply here answers the user's own action (through the
outbox, as every reply); the report's message to the reports chat is owed by the use case."""

from __future__ import annotations

import logging

from telegram import CallbackQuery, Chat, Update, User
from telegram.constants import ChatType
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
from bot.core.reports import (
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
from bot.handlers.admin import AdminCheck, AdminCheckUnavailableError
from bot.handlers.common import Answering, answer_press, player
from bot.handlers.start import StartHandlers
from bot.parsing import arguments_of
from bot.parsing.reports import clean_comment
from bot.render import commands
from bot.render import reports as render

log = logging.getLogger(__name__)

RESOLVED_TOAST = {ReportStatus.FIXED: "Marked fixed", ReportStatus.DISMISSED: "Dismissed"}


def refusal_text(outcome: Refusal, *, link: bool = False) -> str:
    match outcome:
        case NotReportable():
            return render.NOT_REPORTABLE_LINK if link else render.NOT_REPORTABLE
        case QuestionGone():
            return render.QUESTION_GONE
        case AlreadyReported():
            return render.ALREADY_REPORTED
        case DailyLimit(limit=limit):
            return render.daily_limit(limit)


class ReportHandlers:
    def __init__(
        self,
        *,
        reports: ReportService,
        answering: Answering,
        admin: AdminCheck,
        start: StartHandlers,
    ) -> None:
        """`start` answers a private text that is no comment, as any other private message."""
        self._reports = reports
        self._answering = answering
        self._admin = admin
        self._start = start

    async def from_link(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """`/start report-<ask>` (the link under a group's closed question): the reason picker,
        in private. A link naming no question gets the greeting."""
        message, user = update.effective_message, update.effective_user
        link = None if message is None else parse_report_link(arguments_of(message.text or ""))
        if message is None or user is None or link is None:
            await self._start.help(update, context)
            return
        outcome = await self._reports.start(user.id, link.ask_id)
        if not isinstance(outcome, Subject):
            await self._answering.reply(message, refusal_text(outcome, link=True))
            return
        text, keyboard = render.picker_message(outcome), render.picker_keyboard(outcome.ask.id)
        await self._answering.reply(message, text, keyboard=keyboard, quote=False)

    async def on_press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        data = parse_report_data(query.data)
        if query.message is None or data is None:
            await answer_press(query, render.NOT_REPORTABLE, alert=True)
            return
        chat, user = query.message.chat, query.from_user
        if isinstance(data, ResolveButton):
            await self._resolve(query, chat, user, data)
        elif chat.type != ChatType.PRIVATE:
            await answer_press(query, render.NOT_REPORTABLE, alert=True)
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
            await answer_press(query, refusal_text(outcome), alert=True)
            return
        assert query.message is not None
        text, keyboard = render.picker_message(outcome), render.picker_keyboard(outcome.ask.id)
        await answer_press(query)
        await self._answering.send_reply(chat, text, query.message.message_id, keyboard)

    async def _reason(self, query: CallbackQuery, user: User, button: ReasonButton) -> None:
        assert query.message is not None
        message_id = query.message.message_id
        outcome = await self._reports.report(user.id, button.ask_id, button.reason, message_id)
        if not isinstance(outcome, Created):
            await answer_press(query, refusal_text(outcome), alert=True)
            return
        minutes = int(self._reports.comment_window.total_seconds() // 60)
        prompt = render.comment_prompt(outcome.report, minutes)
        keyboard = render.comment_keyboard(outcome.report.id)
        await answer_press(query, "⚑ Report saved")
        await self._answering.edit(query.message.chat, message_id, prompt, keyboard)

    async def _skip(self, query: CallbackQuery, user: User, button: SkipCommentButton) -> None:
        assert query.message is not None
        chat, message_id = query.message.chat, query.message.message_id
        outcome = await self._reports.skip(user.id, button.report_id)
        match outcome:
            case NotReportable():
                await answer_press(query, render.NOT_REPORTABLE, alert=True)
            case AlreadyFiled(report=report):
                await answer_press(query, render.ALREADY_FILED)
                await self._answering.edit(chat, message_id, render.filed_prompt(report))
            case Filed(report=report):
                await answer_press(query)
                await self._answering.edit(chat, message_id, render.filed_prompt(report))

    async def _resolve(
        self, query: CallbackQuery, chat: Chat, user: User, button: ResolveButton
    ) -> None:
        if chat.id != self._reports.reports_chat:
            await answer_press(query, render.RESOLVE_NOT_HERE, alert=True)
            return
        try:
            may = await self._admin.may_act_for(query.get_bot(), chat, user.id)
        except AdminCheckUnavailableError:
            await answer_press(query, commands.ADMIN_CHECK_FAILED, alert=True)
            return
        if not may:
            await answer_press(query, render.RESOLVE_ADMINS_ONLY, alert=True)
            return
        outcome = await self._reports.resolve(button.report_id, button.status, user.id)
        match outcome:
            case NoSuchReport():
                await answer_press(query, render.NO_SUCH_REPORT, alert=True)
            case AlreadyResolved(view=view):
                await answer_press(query, f"Already {view.report.status.value}.")
            case Resolved(view=view):
                assert query.message is not None
                text = render.report_message(view, player(user).display_name)
                await answer_press(query, RESOLVED_TOAST[button.status])
                await self._answering.edit(chat, query.message.message_id, text)

    async def on_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Plain text in private: the comment of the learner's waiting report, else as any
        other private message."""
        message, user = update.effective_message, update.effective_user
        comment = None if message is None else clean_comment(message.text or "")
        if message is None or user is None or comment is None:
            await self._start.other(update, context)
            return
        outcome = await self._reports.comment(user.id, comment)
        match outcome:
            case Commented(report=report):
                await self._answering.reply(message, render.COMMENT_ADDED)
                if report.prompt_message_id is not None:  # its `Send without comment` is done
                    prompt = render.filed_prompt(report)
                    await self._answering.edit(message.chat, report.prompt_message_id, prompt)
            case CommentTooLate():
                await self._answering.reply(message, render.COMMENT_TOO_LATE)
            case _:
                await self._start.other(update, context)
