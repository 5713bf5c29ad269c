"""Sending a submitted exam's result (an outbox item): its message is closed, the result follows."""

from __future__ import annotations

import logging
from typing import Any

from telegram import Message, ReplyParameters
from telegram.error import BadRequest
from telegram.ext import ExtBot

from bot.core.delivery import ShowExamResult
from bot.render import exams as render_exam

log = logging.getLogger(__name__)


async def send_exam_result(bot: ExtBot[Any], item: ShowExamResult) -> Message:
    """Edit the exam's message to say it was submitted (buttons gone), then send the result
    as a reply to it. A retry finds the edit done ('not modified'), and a message that cannot be
    edited any more (deleted, too old) does not hold the result back."""
    effect, result = item.effect, item.result
    if effect.message_id is not None:
        try:
            await bot.edit_message_text(
                render_exam.submitted_message(result.exam.submitted_by),
                chat_id=effect.chat_id,
                message_id=effect.message_id,
                reply_markup=None,
            )
        except BadRequest as error:
            log.info("exam %s: message not closed: %s", result.exam.id, error.message)
    reply = None
    if effect.message_id is not None:
        reply = ReplyParameters(effect.message_id, allow_sending_without_reply=True)
    return await bot.send_message(
        effect.chat_id,
        render_exam.result_message(result),
        reply_parameters=reply,
        reply_markup=render_exam.result_keyboard(result),
    )
