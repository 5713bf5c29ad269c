"""Chat settings: /daily and /deck (admins in groups; in a private chat, the user)."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot.core.catalog import Catalog
from bot.core.chats import ChatService
from bot.core.daily import DailyService
from bot.handlers.admin import ADMINS_ONLY, may_change_settings
from bot.handlers.commands import allowed
from bot.handlers.common import chat_ref, reply
from bot.handlers.throttle import CommandThrottle
from bot.parsing import DailyOff, ListDecks, ShowDaily, Usage, arguments_of, parse_daily, parse_deck
from bot.render import settings as render_daily


class SettingsHandlers:
    def __init__(
        self,
        daily: DailyService,
        chats: ChatService,
        catalog: Catalog,
        throttle: CommandThrottle,
    ) -> None:
        self._daily = daily
        self._chats = chats
        self._catalog = catalog
        self._throttle = throttle

    async def daily(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None or not await allowed(self._throttle, message):
            return
        request = parse_daily(arguments_of(message.text or ""))
        if isinstance(request, Usage):
            await reply(message, request.text)
            return
        if isinstance(request, ShowDaily):
            await reply(
                message, render_daily.daily_status(await self._daily.status(message.chat_id))
            )
            return
        if not await may_change_settings(message, context):
            await reply(message, ADMINS_ONLY)
            return
        if isinstance(request, DailyOff):
            await self._daily.turn_off(message.chat_id)
            await reply(message, render_daily.DAILY_OFF)
            return
        slot = await self._daily.turn_on(chat_ref(message.chat), request.at, request.zone)
        chosen = await self._chats.zone_of(message.chat_id)
        await reply(message, render_daily.daily_on(f"{request.at:%H:%M}", chosen, slot.at))

    async def deck(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None or not await allowed(self._throttle, message):
            return
        request = parse_deck(arguments_of(message.text or ""))
        if isinstance(request, Usage):
            await reply(message, request.text)
            return
        decks = self._catalog.all()
        if isinstance(request, ListDecks):
            current = await self._chats.deck_for(message.chat_id)
            await reply(message, render_daily.deck_list(current, decks))
            return
        deck = self._catalog.get(request.deck_id)
        if deck is None:
            await reply(message, render_daily.unknown_deck(request.deck_id, decks))
            return
        if not await may_change_settings(message, context):
            await reply(message, ADMINS_ONLY)
            return
        await self._chats.set_deck(chat_ref(message.chat), deck)
        await reply(message, render_daily.deck_chosen(deck))
