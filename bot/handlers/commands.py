"""Command handlers: /start, /help, /quiz, /me."""

from __future__ import annotations

import logging

from telegram import ReplyParameters, Update
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot import render
from bot.core.service import QuizService
from bot.handlers.common import chat_ref

log = logging.getLogger(__name__)


class CommandHandlers:
    def __init__(self, quiz: QuizService) -> None:
        self.service = quiz

    async def help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None:
            return
        deck = self.service.deck_for(message.chat_id)
        await message.reply_text(render.help_message(deck), do_quote=False)

    async def quiz(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None:
            return
        thread_id = message.message_thread_id if message.is_topic_message else None
        new = await self.service.new_ask(chat_ref(message.chat), thread_id)
        deck = self.service.decks[new.ask.deck_id]
        try:
            sent = await context.bot.send_message(
                chat_id=message.chat_id,
                message_thread_id=thread_id,
                text=render.question_message(new.question, new.ask, deck.title),
                reply_markup=render.question_keyboard(new.ask),
            )
        except TelegramError:
            # Nobody saw the question, so it must not count as asked.
            await self.service.discard_ask(new.ask)
            raise
        await self.service.attach_message(new.ask, sent.message_id)

    async def me(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        user = update.effective_user
        if message is None or user is None:
            return
        stats = await self.service.stats(message.chat_id, user.id)
        await message.reply_text(
            render.stats_message(stats),
            reply_parameters=ReplyParameters(message.message_id, allow_sending_without_reply=True),
        )
