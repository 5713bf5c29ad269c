"""Chat settings: /daily and /deck (admins in groups; in a private chat, the user)."""

from __future__ import annotations

from html import escape
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from telegram import Update
from telegram.ext import ContextTypes

from bot import render_daily
from bot.core.daily import DailyService
from bot.core.schedule import parse_local_time
from bot.handlers.admin import ADMINS_ONLY, may_change_settings
from bot.handlers.commands import reply
from bot.handlers.common import chat_ref


class SettingsHandlers:
    def __init__(self, daily: DailyService) -> None:
        self.daily = daily
        self.quiz = daily.quiz

    async def daily_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None:
            return
        args = context.args or []
        if not args:
            await reply(
                message, render_daily.daily_status(await self.daily.status(message.chat_id))
            )
            return
        turning_off = len(args) == 1 and args[0].lower() == "off"
        at = None if turning_off else parse_local_time(args[0])
        zone: ZoneInfo | None = None
        if not turning_off and (at is None or len(args) > 2):
            await reply(message, render_daily.DAILY_USAGE)
            return
        if len(args) == 2:
            try:
                zone = ZoneInfo(args[1])
            except (ZoneInfoNotFoundError, ValueError):
                await reply(
                    message,
                    f"I don't know the time zone {escape(args[1])!r}.\n{render_daily.DAILY_USAGE}",
                )
                return
        if not await may_change_settings(message, context):
            await reply(message, ADMINS_ONLY)
            return
        if turning_off:
            await self.daily.turn_off(message.chat_id)
            await reply(message, "The daily question is off. /daily HH:MM turns it back on.")
            return
        assert at is not None
        slot = await self.daily.turn_on(chat_ref(message.chat), at, zone)
        chosen = await self.quiz.zone_of(message.chat_id)
        await reply(message, render_daily.daily_on(f"{at:%H:%M}", chosen, slot.at))

    async def deck(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None:
            return
        args = context.args or []
        decks = [self.quiz.decks[key] for key in sorted(self.quiz.decks)]
        if not args:
            current = await self.quiz.deck_for(message.chat_id)
            await reply(message, render_daily.deck_list(current, decks))
            return
        if len(args) != 1:
            await reply(message, render_daily.DECK_USAGE)
            return
        if args[0] not in self.quiz.decks:
            known = ", ".join(d.id for d in decks)
            await reply(message, f"There is no deck {escape(args[0])!r}. Decks: {known}.")
            return
        if not await may_change_settings(message, context):
            await reply(message, ADMINS_ONLY)
            return
        deck = await self.quiz.set_deck(chat_ref(message.chat), args[0])
        await reply(message, f"📚 This chat now uses <b>{escape(deck.title)}</b>.")
