"""The answer path: a press on a letter button."""

from __future__ import annotations

import logging

from telegram import CallbackQuery, ReplyParameters, Update
from telegram.error import BadRequest
from telegram.ext import ContextTypes

from bot import render, render_group
from bot.callback_data import parse_answer_button
from bot.core.scoring import AlreadyAnswered, Invalid, Recorded, TooLate
from bot.core.service import QuizService
from bot.handlers.common import player
from bot.live_count import LiveCounts

log = logging.getLogger(__name__)


class AnswerHandlers:
    def __init__(self, quiz: QuizService, live: LiveCounts) -> None:
        self.service = quiz
        self.live = live

    async def on_press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        button = parse_answer_button(query.data)
        if button is None or query.message is None:
            await query.answer(render.INVALID_BUTTON_ALERT, show_alert=True)
            return
        result = await self.service.answer(
            chat_id=query.message.chat.id,
            message_id=query.message.message_id,
            ask_id=button.ask_id,
            position=button.position,
            player=player(query.from_user),
        )
        match result:
            case Invalid(reason):
                log.info("rejected a press from user %s: %s", query.from_user.id, reason)
                await query.answer(render.INVALID_BUTTON_ALERT, show_alert=True)
            case AlreadyAnswered(answer=answer):
                await query.answer(render.already_answered_toast(answer.position))
            case TooLate(ask=ask):
                await query.answer(render.too_late_toast(ask), show_alert=True)
            case Recorded(ask=ask, question=question, answer=answer) if ask.closes_at:
                # A group question: only the presser hears the result; the group sees a count.
                alert = render_group.answer_alert(question, ask, answer.correct)
                await query.answer(alert, show_alert=True)
                await self.live.answered(ask)
            case Recorded():
                await self._reveal_private(query, result, context)

    async def _reveal_private(
        self, query: CallbackQuery, result: Recorded, context: ContextTypes.DEFAULT_TYPE
    ) -> None:
        ask, question, answer = result.ask, result.question, result.answer
        await query.answer(render.result_toast(ask, answer.correct))
        deck_title = self.service.decks[ask.deck_id].title
        try:
            await query.edit_message_text(
                render.answered_message(question, ask, answer.position, deck_title),
                reply_markup=None,
            )
        except BadRequest as error:
            # The message may be gone or already edited; the explanation still goes out.
            log.info("could not mark answered question %s: %s", ask.id, error.message)
        assert query.message is not None
        await context.bot.send_message(
            chat_id=ask.chat_id,
            message_thread_id=ask.thread_id,
            text=render.explanation_message(question, ask, answer.correct),
            reply_parameters=ReplyParameters(
                query.message.message_id, allow_sending_without_reply=True
            ),
        )
