"""`/review` (and `/start review`, the link from a group): the learner's due cards."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import ContextTypes

from bot.core.memory.review import NothingDue, ReviewService
from bot.core.quiz import QuizService
from bot.core.rounds import RoundRunning
from bot.handlers.common import chat_ref, reply, thread_of
from bot.render import review as render_review
from bot.render import rounds as render_rounds
from bot.workers.sender import Sender


class ReviewHandlers:
    def __init__(self, review: ReviewService, quiz: QuizService, sender: Sender) -> None:
        self._review = review
        self._quiz = quiz
        self._sender = sender

    async def review(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        if message.chat.type != ChatType.PRIVATE:
            await message.reply_text(
                render_review.IN_PRIVATE,
                message_thread_id=thread_of(message),
                reply_markup=render_review.private_link_keyboard(context.bot.username),
            )
            return
        chat = chat_ref(message.chat)
        outcome = await self._review.start(chat, user.id)
        if isinstance(outcome, NothingDue):
            await message.reply_text(
                render_review.nothing_due(outcome.next_due),
                reply_markup=render_review.quiz_me_keyboard(),
            )
        elif isinstance(outcome, RoundRunning):
            await reply(message, render_rounds.ROUND_RUNNING)
        else:
            self._sender.kick(chat.id)

    async def quiz_me(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """ "Ask me a question" under "nothing to review": a normal question, as `/quiz`."""
        query = update.callback_query
        if query is None or query.message is None:
            return
        message = query.message
        if message.chat.type != ChatType.PRIVATE:
            await query.answer()
            return
        await query.answer()
        await self._quiz.quiz(chat_ref(message.chat), None)
        self._sender.kick(message.chat.id)
