"""Playing: `/quiz` (one question, a round, a topic), `/stop`, a letter pressed on a question,
and `Next ▶` in a private round."""

from __future__ import annotations

import logging
from collections.abc import Callable

from telegram import CallbackQuery, Update
from telegram.ext import ContextTypes

from bot import metrics
from bot.callback_data import (
    NextButton,
    parse_answer_button,
    parse_next_button,
    parse_pick_button,
    parse_submit_button,
)
from bot.core.quiz import Picked, QuizService, StillOpen, WrongCount
from bot.core.rounds.service import NoRound, NotAllowed, RoundOver, RoundRunning, RoundService
from bot.core.rules.mastery import NoSuchTopic
from bot.core.rules.scoring import AlreadyAnswered, AnswerResult, Invalid, Recorded, TooLate
from bot.handlers.admin import AdminCheck, AdminCheckUnavailableError
from bot.handlers.common import Answering, answer_press, chat_ref, player, thread_of
from bot.parsing import Usage, arguments_of, parse_quiz
from bot.render import commands, group, questions, rounds, topics
from bot.workers.live_count import LiveCounts

log = logging.getLogger(__name__)


class QuizHandlers:
    def __init__(
        self,
        *,
        quiz: QuizService,
        rounds: RoundService,
        answering: Answering,
        admin: AdminCheck,
        live: LiveCounts,
        kick: Callable[[int], None],
        counts_here: Callable[[], bool] = lambda: True,
    ) -> None:
        self._quiz = quiz
        self._rounds = rounds
        self._answering = answering
        self._admin = admin
        self._live = live
        self._kick = kick
        # Replicas: only the leader keeps live counts (from every replica's answers).
        self._counts_here = counts_here

    async def quiz(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """`/quiz`, `/quiz N`, `/quiz TOPIC`, `/quiz N TOPIC`. A group with an open `/quiz`
        question gets one pointer to it (owed by the use case), however many ask."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None or not await self._answering.allowed(message):
            return
        request = parse_quiz(arguments_of(message.text or ""))
        if isinstance(request, Usage):
            await self._answering.reply(message, request.text)
            return
        chat, thread, topic = chat_ref(message.chat), thread_of(message), request.topic
        if request.size is None:
            asked = await self._quiz.quiz(chat, thread, topic, message_id=message.message_id)
            if isinstance(asked, StillOpen):
                return
            outcome = asked
        else:
            started = await self._rounds.start(chat, thread, user.id, request.size, topic)
            if isinstance(started, RoundRunning):
                await self._answering.reply(message, rounds.ROUND_RUNNING)
                return
            outcome = started
        if isinstance(outcome, NoSuchTopic):
            await self._answering.reply(message, topics.no_such_topic(outcome))

    async def stop(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None or not await self._answering.allowed(message):
            return

        async def is_admin() -> bool:
            return await self._admin.may_change_settings(message, context.bot)

        try:
            outcome = await self._rounds.stop(message.chat_id, user.id, is_admin)
        except AdminCheckUnavailableError:
            await self._answering.reply(message, commands.ADMIN_CHECK_FAILED)
            return
        if isinstance(outcome, NoRound):
            await self._answering.reply(message, rounds.NO_ROUND)
        elif isinstance(outcome, NotAllowed):
            await self._answering.reply(message, rounds.STOP_REFUSED)

    async def on_press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A letter under a question (picked, on a "choose N" question), `Submit` or `Next ▶`;
        anything else is refused politely."""
        query = update.callback_query
        if query is None:
            return
        if query.message is None:  # too old for Telegram to show us the message
            await answer_press(query, questions.INVALID_BUTTON_ALERT, alert=True)
            return
        next_button = parse_next_button(query.data)
        if next_button is not None:
            await self._next(query, next_button)
            return
        chat_id, message_id = query.message.chat.id, query.message.message_id
        presser = player(query.from_user)
        result: AnswerResult | Picked | WrongCount
        if (button := parse_answer_button(query.data)) is not None:
            result = await self._quiz.answer(
                chat_id=chat_id,
                message_id=message_id,
                ask_id=button.ask_id,
                position=button.position,
                player=presser,
            )
        elif (pick := parse_pick_button(query.data)) is not None:
            result = await self._quiz.pick(
                chat_id=chat_id,
                message_id=message_id,
                ask_id=pick.ask_id,
                position=pick.position,
                player=presser,
            )
        elif (submit := parse_submit_button(query.data)) is not None:
            result = await self._quiz.submit(
                chat_id=chat_id, message_id=message_id, ask_id=submit.ask_id, player=presser
            )
        else:
            await answer_press(query, questions.INVALID_BUTTON_ALERT, alert=True)
            return
        await self._tell(query, result)

    async def _tell(self, query: CallbackQuery, result: AnswerResult | Picked | WrongCount) -> None:
        """Answer the press with what it did."""
        assert query.message is not None
        if isinstance(result, Recorded):
            metrics.answer_recorded(query.message.chat.type)
        match result:
            case Invalid(reason):
                log.info("rejected a press from user %s: %s", query.from_user.id, reason)
                await answer_press(query, questions.INVALID_BUTTON_ALERT, alert=True)
            case Picked(ask=ask, picked=picked):
                await answer_press(query, questions.picks_toast(ask, picked))
            case WrongCount(ask=ask, picked=picked):
                await answer_press(query, questions.wrong_count_alert(ask, picked), alert=True)
            case AlreadyAnswered(answer=answer):
                await answer_press(query, questions.already_answered_toast(answer.positions))
            case TooLate(ask=ask):
                await answer_press(query, questions.too_late_toast(ask), alert=True)
            case Recorded(ask=ask, question=question, answer=answer) if ask.closes_at:
                # A group question: only the presser hears the result; the group sees a count.
                alert = group.answer_alert(question, ask, answer.correct)
                await answer_press(query, alert, alert=True)
                if self._counts_here() and self._live.answered(ask):
                    self._kick(query.message.chat.id)
            case Recorded(ask=ask, answer=answer):
                await answer_press(query, questions.result_toast(ask, answer.correct))

    async def _next(self, query: CallbackQuery, button: NextButton) -> None:
        assert query.message is not None
        chat = chat_ref(query.message.chat)
        outcome = await self._rounds.next(
            chat, button.round_id, button.asked, query.message.message_id
        )
        if isinstance(outcome, RoundOver):
            await answer_press(query, rounds.ROUND_OVER)
            return
        await answer_press(query)
