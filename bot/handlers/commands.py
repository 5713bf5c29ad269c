"""Command handlers: /start, /help, /quiz, /me, /leaderboard, /timezone."""

from __future__ import annotations

import logging
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from telegram import Message, ReplyParameters, Update
from telegram.constants import ChatType
from telegram.ext import ContextTypes

from bot import render, render_boards, render_rounds
from bot.core.daily import DailyService
from bot.core.periods import PeriodKind
from bot.core.rounds import MAX_ROUND, RoundService
from bot.core.service import QuizService
from bot.handlers.admin import ADMINS_ONLY, may_change_settings
from bot.handlers.common import chat_ref, player
from bot.jobs import Ticker
from bot.posting import Poster

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
    def __init__(
        self,
        quiz: QuizService,
        rounds: RoundService,
        poster: Poster,
        ticker: Ticker,
        daily: DailyService,
    ) -> None:
        self.daily = daily
        self.service = quiz
        self.rounds = rounds
        self.poster = poster
        self.ticker = ticker

    async def help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None:
            return
        deck = await self.service.deck_for(message.chat_id)
        await message.reply_text(
            render.help_message(deck), do_quote=False, message_thread_id=thread_of(message)
        )

    async def quiz(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        user = update.effective_user
        if message is None or user is None:
            return
        args = context.args or []
        chat = chat_ref(message.chat)
        if not args:
            await self.poster.question(await self.service.new_ask(chat, thread_of(message)))
            return
        size = int(args[0]) if len(args) == 1 and args[0].isdigit() else 0
        if not 1 <= size <= MAX_ROUND:
            await reply(message, render_rounds.ROUND_USAGE)
            return
        first = await self.rounds.start(chat, thread_of(message), user.id, size)
        if first is None:
            await reply(message, render_rounds.ROUND_RUNNING)
            return
        await self.poster.question(first)

    async def stop(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        user = update.effective_user
        if message is None or user is None:
            return
        running = await self.rounds.running(message.chat_id)
        if running is None:
            await reply(message, render_rounds.NO_ROUND)
            return
        if running.started_by != user.id and not await may_change_settings(message, context):
            await reply(message, render_rounds.STOP_REFUSED)
            return
        summary = await self.rounds.finish(running, stopped=True)
        if summary is None:
            return
        for ask in await self.rounds.open_asks(running.id):
            if ask.closes_at is not None:
                await self.ticker.close(ask)
        await self.poster.summary(summary, group=message.chat.type != ChatType.PRIVATE)

    async def me(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        user = update.effective_user
        if message is None or user is None:
            return
        if message.chat.type == ChatType.PRIVATE:
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
        await self.daily.reschedule(message.chat_id)
        await reply(message, f"🕓 Time zone set to {zone.key}: weeks start Monday 00:00 there.")
