"""`/review` (and `/start review`, the link from a group): the learner's due cards; and "Ask me
a question" when none is due."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import ContextTypes

from bot.core.memory.review import NothingDue, ReviewService
from bot.core.quiz import QuizService
from bot.core.rounds.service import RoundRunning
from bot.handlers.common import Answering, answer_press, chat_ref
from bot.render import review, rounds


class ReviewHandlers:
    def __init__(self, *, review: ReviewService, quiz: QuizService, answering: Answering) -> None:
        self._review = review
        self._quiz = quiz
        self._answering = answering

    async def review(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None or not await self._answering.allowed(message):
            return
        if message.chat.type != ChatType.PRIVATE:
            keyboard = review.private_link_keyboard(context.bot.username)
            await self._answering.reply(message, review.IN_PRIVATE, keyboard=keyboard, quote=False)
            return
        outcome = await self._review.start(chat_ref(message.chat), user.id)
        if isinstance(outcome, NothingDue):
            text = review.nothing_due(outcome.next_due)
            keyboard = review.quiz_me_keyboard()
            await self._answering.reply(message, text, keyboard=keyboard, quote=False)
        elif isinstance(outcome, RoundRunning):
            await self._answering.reply(message, rounds.ROUND_RUNNING)

    async def quiz_me(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """ "Ask me a question" under "nothing to review": a normal question, as `/quiz`."""
        query = update.callback_query
        if query is None or query.message is None:
            return
        await answer_press(query)
        if query.message.chat.type == ChatType.PRIVATE:
            await self._quiz.quiz(chat_ref(query.message.chat), None)
