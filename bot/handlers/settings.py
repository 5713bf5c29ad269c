"""A chat's settings: `/daily`, `/deck` and `/timezone` (admins in groups; in a private chat,
the user). Showing a setting is for everyone."""

from __future__ import annotations

from telegram import Message, Update
from telegram.ext import ContextTypes

from bot.core.catalog import Catalog
from bot.core.chats import ChatService
from bot.core.daily import DailyService
from bot.handlers.admin import AdminCheck, AdminCheckUnavailableError
from bot.handlers.common import Answering, chat_ref, thread_of
from bot.parsing import (
    DailyOff,
    ListDecks,
    ShowDaily,
    ShowTimezone,
    Usage,
    arguments_of,
    parse_daily,
    parse_deck,
    parse_timezone,
)
from bot.render import commands, settings


class SettingsHandlers:
    def __init__(
        self,
        *,
        daily: DailyService,
        chats: ChatService,
        catalog: Catalog,
        answering: Answering,
        admin: AdminCheck,
    ) -> None:
        self._daily = daily
        self._chats = chats
        self._catalog = catalog
        self._answering = answering
        self._admin = admin

    async def _admin_or_told(self, message: Message, context: ContextTypes.DEFAULT_TYPE) -> bool:
        """Whether the sender may change the setting; if not (or if Telegram could not say),
        they are told so and nothing changes."""
        try:
            if await self._admin.may_change_settings(message, context.bot):
                return True
            await self._answering.reply(message, commands.ADMINS_ONLY)
        except AdminCheckUnavailableError:
            await self._answering.reply(message, commands.ADMIN_CHECK_FAILED)
        return False

    async def daily(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None or not await self._answering.allowed(message):
            return
        request = parse_daily(arguments_of(message.text or ""))
        if isinstance(request, Usage):
            await self._answering.reply(message, request.text)
            return
        if isinstance(request, ShowDaily):
            status = await self._daily.status(message.chat_id)
            await self._answering.reply(message, settings.daily_status(status))
            return
        if not await self._admin_or_told(message, context):
            return
        if isinstance(request, DailyOff):
            await self._daily.turn_off(message.chat_id)
            await self._answering.reply(message, settings.DAILY_OFF)
            return
        chat, thread = chat_ref(message.chat), thread_of(message)
        slot = await self._daily.turn_on(chat, request.at, request.zone, thread)
        chosen = await self._chats.zone_of(message.chat_id)
        text = settings.daily_on(f"{request.at:%H:%M}", chosen, slot.at)
        await self._answering.reply(message, text)

    async def deck(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None or not await self._answering.allowed(message):
            return
        request = parse_deck(arguments_of(message.text or ""))
        if isinstance(request, Usage):
            await self._answering.reply(message, request.text)
            return
        decks = self._catalog.all()
        if isinstance(request, ListDecks):
            current = await self._chats.deck_for(message.chat_id)
            await self._answering.reply(message, settings.deck_list(current, decks))
            return
        deck = self._catalog.get(request.deck_id)
        if deck is None:
            await self._answering.reply(message, settings.unknown_deck(request.deck_id, decks))
            return
        if not await self._admin_or_told(message, context):
            return
        await self._chats.set_deck(chat_ref(message.chat), deck)
        await self._answering.reply(message, settings.deck_chosen(deck))

    async def timezone(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None or not await self._answering.allowed(message):
            return
        request = parse_timezone(arguments_of(message.text or ""))
        if isinstance(request, Usage):
            await self._answering.reply(message, request.text)
            return
        if isinstance(request, ShowTimezone):
            zone = await self._chats.zone_of(message.chat_id)
            await self._answering.reply(message, commands.timezone_status(zone.key))
            return
        if not await self._admin_or_told(message, context):
            return
        await self._chats.set_timezone(chat_ref(message.chat), request.zone)
        await self._daily.reschedule(message.chat_id)
        await self._answering.reply(message, commands.timezone_set(request.zone.key))
