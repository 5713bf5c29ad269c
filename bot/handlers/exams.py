"""`/exam` and the buttons of exams: parse, call the exam use case, render the outcome.

The exam's page is owed by the use case (at the start and on Resume), and so is the result
(by the submission itself, whether the learner finished or the clock did). A press is answered
here; the page it changes is edited through the outbox, like every reply.
"""

from __future__ import annotations

import logging

from telegram import InlineKeyboardMarkup, Update
from telegram.constants import ChatType
from telegram.ext import ContextTypes

from bot.callback_data.exams import parse_exam_button
from bot.core.exams.actions import (
    ConfirmFinish,
    InProgress,
    MissShown,
    Refusal,
    Refused,
    ResultShown,
    Resumed,
    Shown,
    Submitted,
)
from bot.core.exams.draw import SizeOutOfRange
from bot.core.exams.service import ExamService
from bot.handlers.common import Answering, answer_press, chat_ref
from bot.parsing import Usage, arguments_of
from bot.parsing.exams import parse_exam
from bot.render import exams

log = logging.getLogger(__name__)


class ExamHandlers:
    def __init__(self, *, exams: ExamService, answering: Answering) -> None:
        self._exams = exams
        self._answering = answering

    async def exam(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None or not await self._answering.allowed(message):
            return
        if message.chat.type != ChatType.PRIVATE:
            bot = f"@{context.bot.username}"
            await self._answering.reply(message, exams.PRIVATE_ONLY.format(bot=bot))
            return
        request = parse_exam(arguments_of(message.text or ""))
        if isinstance(request, Usage):
            await self._answering.reply(message, request.text)
            return
        outcome = await self._exams.start(chat_ref(message.chat), user.id, request.size)
        match outcome:
            case SizeOutOfRange():
                await self._answering.reply(message, exams.out_of_range(outcome))
            case InProgress(view=view):
                text, keyboard = exams.in_progress_message(view), exams.in_progress_keyboard(view)
                await self._answering.reply(message, text, keyboard=keyboard, quote=False)

    async def on_press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        button = parse_exam_button(query.data)
        if button is None or query.message is None:
            await answer_press(query, exams.REFUSALS[Refusal.UNKNOWN], alert=True)
            return
        chat_id, message_id = query.message.chat.id, query.message.message_id
        outcome = await self._exams.press(
            user_id=query.from_user.id,
            chat_id=chat_id,
            message_id=message_id,
            exam_id=button.exam_id,
            action=button.action,
        )
        page: tuple[str, InlineKeyboardMarkup | None] | None = None
        match outcome:
            case Refused(reason=reason):
                log.info("refused an exam press from user %s: %s", query.from_user.id, reason)
                await answer_press(query, exams.REFUSALS[reason], alert=True)
                return
            case Submitted(timed_out=timed_out):  # the result is owed
                toast = exams.TIME_UP_TOAST if timed_out else exams.SUBMITTED_TOAST
                await answer_press(query, toast, alert=timed_out)
                return
            case Resumed():  # the page is owed as a new message
                await answer_press(query)
                return
            case Shown(view=view):
                page = exams.exam_message(view), exams.exam_keyboard(view)
            case ConfirmFinish(view=view):
                page = exams.confirm_message(view), exams.confirm_keyboard(view)
            case ResultShown(result=result):
                page = exams.result_message(result), exams.result_keyboard(result)
            case MissShown(view=miss):
                page = exams.miss_message(miss), exams.miss_keyboard(miss)
        await answer_press(query)
        if page is not None:
            chat = query.message.chat
            await self._answering.edit(chat, message_id, *page, user_id=query.from_user.id)
