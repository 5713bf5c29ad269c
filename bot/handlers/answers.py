"""Button presses: a letter answers a question, `Next ▶` moves a private round on."""

from __future__ import annotations

import logging
from collections.abc import Callable

from telegram import CallbackQuery, Update
from telegram.error import BadRequest
from telegram.ext import ContextTypes

from bot import metrics
from bot.callback_data import NextButton, parse_answer_button, parse_next_button
from bot.core.quiz import QuizService
from bot.core.rounds import RoundOver, RoundService
from bot.core.rules.scoring import AlreadyAnswered, Invalid, Recorded, TooLate
from bot.handlers.common import chat_ref, player
from bot.render import group as render_group
from bot.render import questions as render
from bot.render import rounds as render_rounds
from bot.workers.live_count import LiveCounts
from bot.workers.sender import Sender

log = logging.getLogger(__name__)


async def _tell(query: CallbackQuery, text: str | None = None, *, show_alert: bool = False) -> None:
    """Answer a press. One that waited too long (the bot was down or slow) can no longer be
    answered; the press itself was handled all the same."""
    try:
        await query.answer(text, show_alert=show_alert)
    except BadRequest as error:
        log.info("press %s not answered: %s", query.id, error.message)


class AnswerHandlers:
    def __init__(
        self,
        quiz: QuizService,
        rounds: RoundService,
        sender: Sender,
        live: LiveCounts,
        counts_here: Callable[[], bool] = lambda: True,
    ) -> None:
        self._quiz = quiz
        self._rounds = rounds
        self._sender = sender
        self._live = live
        # Replicas: only the leader keeps live counts (from every replica's answers).
        self._counts_here = counts_here

    async def on_press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        if query.message is None:  # too old for Telegram to show us the message
            await _tell(query, render.INVALID_BUTTON_ALERT, show_alert=True)
            return
        next_button = parse_next_button(query.data)
        if next_button is not None:
            await self._next(query, next_button)
            return
        button = parse_answer_button(query.data)
        if button is None:
            await _tell(query, render.INVALID_BUTTON_ALERT, show_alert=True)
            return
        chat_id = query.message.chat.id
        result = await self._quiz.answer(
            chat_id=chat_id,
            message_id=query.message.message_id,
            ask_id=button.ask_id,
            position=button.position,
            player=player(query.from_user),
        )
        if isinstance(result, Recorded):
            metrics.answer_recorded(query.message.chat.type)
        match result:
            case Invalid(reason):
                log.info("rejected a press from user %s: %s", query.from_user.id, reason)
                await _tell(query, render.INVALID_BUTTON_ALERT, show_alert=True)
            case AlreadyAnswered(answer=answer):
                await _tell(query, render.already_answered_toast(answer.position))
            case TooLate(ask=ask):
                await _tell(query, render.too_late_toast(ask), show_alert=True)
            case Recorded(ask=ask, question=question, answer=answer) if ask.closes_at:
                # A group question: only the presser hears the result; the group sees a count.
                await _tell(
                    query, render_group.answer_alert(question, ask, answer.correct), show_alert=True
                )
                if self._counts_here() and self._live.answered(ask):
                    self._sender.kick(chat_id)
            case Recorded(ask=ask, answer=answer):
                self._sender.kick(chat_id)  # the marked question and the explanation are owed
                await _tell(query, render.result_toast(ask, answer.correct))

    async def _next(self, query: CallbackQuery, button: NextButton) -> None:
        assert query.message is not None
        chat = chat_ref(query.message.chat)
        outcome = await self._rounds.next(
            chat, button.round_id, button.asked, query.message.message_id
        )
        if isinstance(outcome, RoundOver):
            await _tell(query, render_rounds.ROUND_OVER)
            return
        self._sender.kick(chat.id)
        await _tell(query)
