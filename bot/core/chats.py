"""A chat's settings and life: deck, time zone, the bot added or removed, group → supergroup."""

from __future__ import annotations

from datetime import datetime, timedelta
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
        cached_for: timedelta | None = None,
    ) -> None:
        """`cached_for`: how long a chat's deck and time zone, read on every answer, are kept
        here. None: until this service changes them (one process per database); with
        replicas, another replica's /deck or /timezone is seen after at most that long."""
        self._chats = chats
        self._boards = boards
        self._catalog = catalog
        self._clock = clock
        self.default_zone = default_zone
        self._cached_for = cached_for
        self._zones: dict[int, tuple[ZoneInfo, datetime]] = {}
        self._deck_ids: dict[int, tuple[str | None, datetime]] = {}
        # Counts this service's changes of each chat: a read that a change overtook (it began
        # before the change was written) must not put the old value back in the cache.
        self._changes: dict[int, int] = {}

    def _fresh(self, read_at: datetime) -> bool:
        return self._cached_for is None or self._clock.now() - read_at < self._cached_for

    def _changed(self, *chat_ids: int) -> None:
        for chat_id in chat_ids:
            self._changes[chat_id] = self._changes.get(chat_id, 0) + 1

    async def _read(self, chat_id: int) -> tuple[ChatSettings | None, bool]:
        """The chat's row, and whether it may be cached (no change of ours overtook it)."""
        before = self._changes.get(chat_id, 0)
        found = await self._chats.chat(chat_id)
        return found, self._changes.get(chat_id, 0) == before

    async def settings(self, chat_id: int) -> ChatSettings | None:
        return await self._chats.chat(chat_id)

    async def ref(self, chat_id: int) -> ChatRef | None:
        """The chat as a ChatRef, or None when unknown."""
        found = await self._chats.chat(chat_id)
        return None if found is None else ChatRef(found.id, found.kind)

    async def deck_for(self, chat_id: int) -> Deck:
        """The chat's deck (`/deck`), or the default one."""
        cached = self._deck_ids.get(chat_id)
        if cached is None or not self._fresh(cached[1]):
            found, current = await self._read(chat_id)
            read = (found.deck_id if found else None, self._clock.now())
            if current:
                self._deck_ids[chat_id] = read
            cached = self._deck_ids.get(chat_id, read)
        return self._catalog.get(cached[0]) or self._catalog.default

    async def zone_of(self, chat_id: int) -> ZoneInfo:
        cached = self._zones.get(chat_id)
        if cached is None or not self._fresh(cached[1]):
            found, current = await self._read(chat_id)
            read = (
                zone_or(found.timezone if found else None, self.default_zone),
                self._clock.now(),
            )
            if current:
                self._zones[chat_id] = read
            cached = self._zones.get(chat_id, read)
        return cached[0]

    async def set_deck(self, chat: ChatRef, deck: Deck) -> None:
        await self._chats.upsert_chat(chat, self._clock.now())
        await self._chats.set_deck(chat.id, deck.id)
        self._changed(chat.id)
        self._deck_ids[chat.id] = (deck.id, self._clock.now())

    async def set_timezone(self, chat: ChatRef, zone: ZoneInfo) -> None:
        """Use `zone` for the chat's weeks and months from now on, past answers included."""
        await self._chats.upsert_chat(chat, self._clock.now())
        await self._chats.set_timezone(chat.id, zone.key)
        self._changed(chat.id)
        self._zones[chat.id] = (zone, self._clock.now())
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
        found, current = await self._read(chat_id)
        if found is None or not found.active or found.kind is ChatKind.CHANNEL:
            return None
        if current:  # the push needs the deck and the zone next: one read instead of three
            now = self._clock.now()
            self._deck_ids[chat_id] = (found.deck_id, now)
            self._zones[chat_id] = (zone_or(found.timezone, self.default_zone), now)
        return ChatRef(found.id, found.kind)

    async def moved(self, old_id: int, new_id: int) -> bool:
        """Group → supergroup: everything of `old_id` now belongs to `new_id`."""
        old = await self._chats.chat(old_id)
        new = await self._chats.chat(new_id)
        key = (new.timezone if new and new.timezone else None) or (old.timezone if old else None)
        bounds = bounds_in(zone_or(key, self.default_zone))
        try:
            return await self._chats.move_chat(old_id, new_id, bounds, self._clock.now())
        finally:  # what either id had cached, or read during the move, is read again
            self._changed(old_id, new_id)
            for cache in (self._zones, self._deck_ids):
                cache.pop(old_id, None)
                cache.pop(new_id, None)
