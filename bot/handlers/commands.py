"""Command handlers: /start, /help, /quiz, /me, /leaderboard, /timezone."""

from __future__ import annotations

import logging
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from telegram import Message, ReplyParameters, Update
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot import render, render_boards, render_group
from bot.core.periods import PeriodKind
from bot.core.service import NewAsk, QuizService
from bot.handlers.admin import ADMINS_ONLY, may_change_settings
from bot.handlers.common import chat_ref, player

log = logging.getLogger(__name__)

TIMEZONE_USAGE = "Usage: /timezone Area/City, for example /timezone Europe/Berlin"


def thread_of(message: Message) -> int | None:
    return message.message_thread_id if message.is_topic_message else None


async def reply(message: Message, text: str) -> None:
    await message.reply_text(
        text,
        message_thread_id=thread_of(message),
        reply_parameters=ReplyParameters(message.message_id, allow_sending_without_reply=True),
    )


class CommandHandlers:
    def __init__(self, quiz: QuizService) -> None:
        self.service = quiz

    async def help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None:
            return
        deck = self.service.deck_for(message.chat_id)
        await message.reply_text(
            render.help_message(deck), do_quote=False, message_thread_id=thread_of(message)
        )

    async def quiz(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None:
            return
        if context.args:
            await reply(message, render.QUIZ_USAGE)
            return
        await self.send_question(
            context, await self.service.new_ask(chat_ref(message.chat), thread_of(message))
        )

    async def send_question(self, context: ContextTypes.DEFAULT_TYPE, new: NewAsk) -> None:
        """Post a stored ask; if Telegram refuses it, the ask is forgotten (nobody saw it)."""
        ask, question = new.ask, new.question
        deck = self.service.decks[ask.deck_id]
        if ask.closes_at is None:
            text = render.question_message(question, ask, deck.title)
        else:
            zone = await self.service.zone_of(ask.chat_id)
            text = render_group.open_question_message(question, ask, deck.title, 0, zone)
        try:
            sent = await context.bot.send_message(
                chat_id=ask.chat_id,
                message_thread_id=ask.thread_id,
                text=text,
                reply_markup=render.question_keyboard(ask),
            )
        except TelegramError:
            await self.service.discard_ask(ask)
            raise
        await self.service.attach_message(ask, sent.message_id)

    async def me(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        user = update.effective_user
        if message is None or user is None:
            return
        if message.chat.type == "private":
            stats = await self.service.stats(message.chat_id, user.id)
            await reply(message, render.stats_message(stats))
            return
        summary = await self.service.player_summary(message.chat_id, user.id)
        await reply(message, render_boards.group_me_message(player(user).display_name, summary))

    async def leaderboard(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        user = update.effective_user
        if message is None or user is None:
            return
        args = [arg.lower() for arg in context.args or []]
        if len(args) > 1 or (args and args[0] not in ("week", "month", "all")):
            await reply(message, render_boards.LEADERBOARD_USAGE)
            return
        kind = PeriodKind(args[0]) if args else PeriodKind.WEEK
        board = await self.service.leaderboard(message.chat_id, kind, user.id)
        zone = await self.service.zone_of(message.chat_id)
        await reply(message, render_boards.leaderboard_message(board, kind, zone.key))

    async def timezone(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None:
            return
        args = context.args or []
        if not args:
            zone = await self.service.zone_of(message.chat_id)
            await reply(message, f"This chat's time zone is {zone.key}.\n{TIMEZONE_USAGE}")
            return
        if len(args) != 1:
            await reply(message, TIMEZONE_USAGE)
            return
        try:
            zone = ZoneInfo(args[0])
        except (ZoneInfoNotFoundError, ValueError):
            await reply(message, f"I don't know the time zone {args[0]!r}. {TIMEZONE_USAGE}")
            return
        if not await may_change_settings(message, context):
            await reply(message, ADMINS_ONLY)
            return
        await self.service.set_timezone(chat_ref(message.chat), zone)
        await reply(message, f"🕓 Time zone set to {zone.key}: weeks start Monday 00:00 there.")
