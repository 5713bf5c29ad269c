"""The answer path: a press on a letter button."""

from __future__ import annotations

import logging

from telegram import CallbackQuery, InlineKeyboardMarkup, ReplyParameters, Update
from telegram.error import BadRequest
from telegram.ext import ContextTypes

from bot import render, render_group, render_rounds
from bot.callback_data import NextButton, parse_answer_button, parse_next_button
from bot.core.domain import Ask
from bot.core.rounds import RoundService, RoundSummary
from bot.core.scoring import AlreadyAnswered, Invalid, Recorded, TooLate
from bot.core.service import QuizService
from bot.handlers.common import chat_ref, player
from bot.live_count import LiveCounts
from bot.posting import Poster

log = logging.getLogger(__name__)


class AnswerHandlers:
    def __init__(
        self, quiz: QuizService, rounds: RoundService, live: LiveCounts, poster: Poster
    ) -> None:
        self.service = quiz
        self.rounds = rounds
        self.live = live
        self.poster = poster

    async def on_press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        next_button = parse_next_button(query.data)
        if next_button is not None and query.message is not None:
            await self._next(query, next_button)
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
        step = await self._round_step(ask)
        await context.bot.send_message(
            chat_id=ask.chat_id,
            message_thread_id=ask.thread_id,
            text=render.explanation_message(question, ask, answer.correct),
            reply_parameters=ReplyParameters(
                query.message.message_id, allow_sending_without_reply=True
            ),
            reply_markup=step if isinstance(step, InlineKeyboardMarkup) else None,
        )
        if isinstance(step, RoundSummary):
            await self.poster.summary(step, group=False)

    async def _round_step(self, ask: Ask) -> InlineKeyboardMarkup | RoundSummary | None:
        """In a private round: a `Next ▶` button, or the summary after the last question."""
        if ask.round_id is None:
            return None
        state = await self.rounds.progress(ask.round_id)
        if state is None:
            return None
        current, asked = state
        if asked < current.size:
            return render_rounds.next_keyboard(NextButton(current.id, asked))
        return await self.rounds.finish(current, stopped=False)

    async def _next(self, query: CallbackQuery, button: NextButton) -> None:
        assert query.message is not None
        chat = chat_ref(query.message.chat)
        step = await self.rounds.advance(chat, button.round_id, button.asked)
        if step is None:
            await query.answer(render_rounds.ROUND_OVER)
            return
        await query.answer()
        try:
            await query.edit_message_reply_markup(reply_markup=None)
        except BadRequest as error:
            log.info("could not remove a Next button: %s", error.message)
        await self.poster.step(step, group=False)
