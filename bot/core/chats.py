"""A chat's settings and life: deck, time zone, the bot added or removed, group → supergroup."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.core.catalog import Catalog
from bot.core.clock import Clock
from bot.core.model import ChatKind, ChatRef, ChatSettings, PeriodKind
from bot.core.ports import BoardStore, ChatStore, PeriodBounds
from bot.core.rules.periods import period_range
from content.models import Deck


def bounds_in(zone: ZoneInfo) -> PeriodBounds:
    """Period bounds in `zone`, for recounting a chat's boards."""

    def bounds(kind: PeriodKind, moment: datetime) -> tuple[datetime, datetime]:
        return period_range(kind, moment, zone)

    return bounds


def zone_or(key: str | None, default: ZoneInfo) -> ZoneInfo:
    """The zone named `key`, or `default` when there is none or it is unknown here."""
    if not key:
        return default
    try:
        return ZoneInfo(key)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return default


class ChatService:
    def __init__(
        self,
        *,
        chats: ChatStore,
        boards: BoardStore,
        catalog: Catalog,
        clock: Clock,
        default_zone: ZoneInfo,
    ) -> None:
        self._chats = chats
        self._boards = boards
        self._catalog = catalog
        self._clock = clock
        self.default_zone = default_zone
        # Read on every answer; they change only through this service, so they are cached.
        self._zones: dict[int, ZoneInfo] = {}
        self._deck_ids: dict[int, str | None] = {}

    async def settings(self, chat_id: int) -> ChatSettings | None:
        return await self._chats.chat(chat_id)

    async def ref(self, chat_id: int) -> ChatRef | None:
        """The chat as a ChatRef, or None when unknown."""
        found = await self._chats.chat(chat_id)
        return None if found is None else ChatRef(found.id, found.kind)

    async def deck_for(self, chat_id: int) -> Deck:
        """The chat's deck (`/deck`), or the default one."""
        if chat_id not in self._deck_ids:
            found = await self._chats.chat(chat_id)
            self._deck_ids[chat_id] = found.deck_id if found else None
        return self._catalog.get(self._deck_ids[chat_id]) or self._catalog.default

    async def zone_of(self, chat_id: int) -> ZoneInfo:
        zone = self._zones.get(chat_id)
        if zone is None:
            found = await self._chats.chat(chat_id)
            zone = zone_or(found.timezone if found else None, self.default_zone)
            self._zones[chat_id] = zone
        return zone

    async def set_deck(self, chat: ChatRef, deck: Deck) -> None:
        await self._chats.upsert_chat(chat, self._clock.now())
        await self._chats.set_deck(chat.id, deck.id)
        self._deck_ids[chat.id] = deck.id

    async def set_timezone(self, chat: ChatRef, zone: ZoneInfo) -> None:
        """Use `zone` for the chat's weeks and months from now on, past answers included."""
        await self._chats.upsert_chat(chat, self._clock.now())
        await self._chats.set_timezone(chat.id, zone.key)
        self._zones.pop(chat.id, None)
        await self._boards.rebuild_chat(chat.id, bounds_in(zone))

    async def joined(self, chat: ChatRef) -> None:
        await self._chats.upsert_chat(chat, self._clock.now())
        await self._chats.set_active(chat.id, True)

    async def removed(self, chat_id: int) -> None:
        await self._chats.set_active(chat_id, False)

    async def is_active(self, chat_id: int) -> bool:
        found = await self._chats.chat(chat_id)
        return found is None or found.active

    async def deliverable(self, chat_id: int) -> ChatRef | None:
        """The chat a push may go to: None when unknown, removed or a channel."""
        found = await self._chats.chat(chat_id)
        if found is None or not found.active or found.kind is ChatKind.CHANNEL:
            return None
        # The push needs the deck and the zone next: one read instead of three per push.
        self._deck_ids[chat_id] = found.deck_id
        self._zones[chat_id] = zone_or(found.timezone, self.default_zone)
        return ChatRef(found.id, found.kind)

    async def moved(self, old_id: int, new_id: int) -> bool:
        """Group → supergroup: everything of `old_id` now belongs to `new_id`."""
        for cache in (self._zones, self._deck_ids):
            cache.pop(old_id, None)
            cache.pop(new_id, None)
        old = await self._chats.chat(old_id)
        new = await self._chats.chat(new_id)
        key = (new.timezone if new and new.timezone else None) or (old.timezone if old else None)
        bounds = bounds_in(zone_or(key, self.default_zone))
        return await self._chats.move_chat(old_id, new_id, bounds, self._clock.now())
