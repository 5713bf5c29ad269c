"""`/exam` and the buttons of exams: parse, call the exam use case, render the outcome.

The learner's own presses are answered here (the exam's one message is edited in place); the
result message is owed through the outbox by the submission itself, so it is sent (and retried)
by the sender whether the learner finished or the clock did.
"""

from __future__ import annotations

import logging

from telegram import CallbackQuery, InlineKeyboardMarkup, Update
from telegram.constants import ChatType
from telegram.error import BadRequest
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
    Started,
    Submitted,
)
from bot.core.exams.draw import SizeOutOfRange
from bot.core.exams.service import ExamService
from bot.handlers.commands import allowed
from bot.handlers.common import chat_ref, reply
from bot.handlers.throttle import CommandThrottle
from bot.parsing import Usage, arguments_of
from bot.parsing.exams import parse_exam
from bot.render import exams as render_exam
from bot.workers.sender import Sender

log = logging.getLogger(__name__)


async def _tell(query: CallbackQuery, text: str | None = None, *, alert: bool = False) -> None:
    try:
        await query.answer(text, show_alert=alert)
    except BadRequest as error:  # waited too long to be answered; handled all the same
        log.info("press %s not answered: %s", query.id, error.message)


async def _edit(query: CallbackQuery, text: str, keyboard: InlineKeyboardMarkup | None) -> None:
    """Show `text` in the pressed message; one already showing it (a repeated press) is fine."""
    try:
        await query.edit_message_text(text, reply_markup=keyboard)
    except BadRequest as error:
        if "not modified" not in error.message.lower():
            raise


class ExamHandlers:
    def __init__(self, exams: ExamService, sender: Sender, throttle: CommandThrottle) -> None:
        self._exams = exams
        self._sender = sender
        self._throttle = throttle

    async def exam(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None or not await allowed(self._throttle, message):
            return
        if message.chat.type != ChatType.PRIVATE:
            bot = f"@{context.bot.username}"
            await reply(message, render_exam.PRIVATE_ONLY.format(bot=bot))
            return
        request = parse_exam(arguments_of(message.text or ""))
        if isinstance(request, Usage):
            await reply(message, request.text)
            return
        outcome = await self._exams.start(chat_ref(message.chat), user.id, request.size)
        match outcome:
            case SizeOutOfRange():
                await reply(message, render_exam.out_of_range(outcome))
            case InProgress(view=view):
                await message.reply_text(
                    render_exam.in_progress_message(view),
                    reply_markup=render_exam.in_progress_keyboard(view),
                    do_quote=False,
                )
            case Started(view=view):
                sent = await message.reply_text(
                    render_exam.exam_message(view),
                    reply_markup=render_exam.exam_keyboard(view),
                    do_quote=False,
                )
                await self._exams.posted(view.exam.id, sent.message_id)

    async def on_press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        button = parse_exam_button(query.data)
        if button is None or query.message is None:
            await _tell(query, render_exam.REFUSALS[Refusal.UNKNOWN], alert=True)
            return
        chat_id = query.message.chat.id
        outcome = await self._exams.press(
            user_id=query.from_user.id,
            chat_id=chat_id,
            message_id=query.message.message_id,
            exam_id=button.exam_id,
            action=button.action,
        )
        match outcome:
            case Refused(reason=reason):
                log.info("refused an exam press from user %s: %s", query.from_user.id, reason)
                await _tell(query, render_exam.REFUSALS[reason], alert=True)
            case Submitted(timed_out=timed_out):
                self._sender.kick(chat_id)  # the result is owed
                toast = render_exam.TIME_UP_TOAST if timed_out else render_exam.SUBMITTED_TOAST
                await _tell(query, toast, alert=timed_out)
            case Shown(view=view):
                await _tell(query)
                await _edit(query, render_exam.exam_message(view), render_exam.exam_keyboard(view))
            case ConfirmFinish(view=view):
                await _tell(query)
                confirm = render_exam.confirm_keyboard(view)
                await _edit(query, render_exam.confirm_message(view), confirm)
            case Resumed(view=view, old_message_id=old):
                await _tell(query)
                sent = await context.bot.send_message(
                    chat_id,
                    render_exam.exam_message(view),
                    reply_markup=render_exam.exam_keyboard(view),
                )
                await self._exams.posted(view.exam.id, sent.message_id)
                if old is not None:
                    await self._unbutton(context, chat_id, old)
            case ResultShown(result=result):
                await _tell(query)
                keyboard = render_exam.result_keyboard(result)
                await _edit(query, render_exam.result_message(result), keyboard)
            case MissShown(view=miss):
                await _tell(query)
                await _edit(query, render_exam.miss_message(miss), render_exam.miss_keyboard(miss))

    async def _unbutton(
        self, context: ContextTypes.DEFAULT_TYPE, chat_id: int, message_id: int
    ) -> None:
        """The exam's old message loses its buttons (cosmetic: its presses are refused)."""
        try:
            await context.bot.edit_message_reply_markup(chat_id, message_id, reply_markup=None)
        except BadRequest as error:
            log.info("exam message %s keeps its buttons: %s", message_id, error.message)
