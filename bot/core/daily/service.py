"""Daily questions: schedules in local time, the due slots, and catching up after downtime."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import time, timedelta
from zoneinfo import ZoneInfo

from bot.core.catalog import Catalog
from bot.core.chats import ChatService, zone_or
from bot.core.clock import Clock
from bot.core.daily.owed import DailyQuestionKind, daily_push
from bot.core.delivery import Outbox
from bot.core.model import Ask, AskOrigin, ChatRef, Push, PushStatus, Schedule, SlotDecision
from bot.core.ports import AskStore, DailyStore, MemoryStore, Store
from bot.core.quiz import Asking
from bot.core.rules.schedule import Slot, latest_slot, next_slot

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DailyStatus:
    schedule: Schedule | None
    zone: ZoneInfo

    @property
    def on(self) -> bool:
        return self.schedule is not None and self.schedule.enabled


class DailyService:
    def __init__(
        self,
        *,
        store: Store,
        daily: DailyStore,
        asks: AskStore,
        chats: ChatService,
        asking: Asking,
        catalog: Catalog,
        clock: Clock,
        outbox: Outbox,
        open_for: timedelta,
        grace: timedelta,
        memory: MemoryStore | None = None,
    ) -> None:
        self._store = store
        self._outbox = outbox
        outbox.register(
            DailyQuestionKind(
                daily=daily,
                asks=asks,
                chats=chats,
                catalog=catalog,
                ask_for=self.ask_for,
                clock=clock.now,
            )
        )
        self._memory = memory
        self._daily = daily
        self._chats = chats
        self._asking = asking
        self._catalog = catalog
        self._clock = clock
        self.open_for = open_for
        self.grace = grace

    async def turn_on(
        self, chat: ChatRef, at: time, zone: ZoneInfo | None, thread_id: int | None = None
    ) -> Slot:
        """Push every day at `at` local time (the zone, when given, becomes the chat's), into
        the forum topic `thread_id` (the one /daily was sent in)."""
        if zone is not None:
            await self._chats.set_timezone(chat, zone)
        else:
            await self._chats.joined(chat)
        now = self._clock.now()
        upcoming = next_slot(now, at, await self._chats.zone_of(chat.id))
        await self._daily.set_schedule(
            chat.id, f"{at:%H:%M}", upcoming.at, upcoming.local_day, now, thread_id
        )
        return upcoming

    async def turn_off(self, chat_id: int) -> bool:
        return await self._daily.disable_schedule(chat_id, self._clock.now())

    async def status(self, chat_id: int) -> DailyStatus:
        return DailyStatus(await self._daily.schedule(chat_id), await self._chats.zone_of(chat_id))

    async def reschedule(self, chat_id: int) -> None:
        """After a time-zone change: the next slot in the new zone."""
        schedule = await self._daily.schedule(chat_id)
        if schedule is None or not schedule.enabled:
            return
        now = self._clock.now()
        at = time.fromisoformat(schedule.local_time)
        upcoming = next_slot(now, at, await self._chats.zone_of(chat_id))
        await self._daily.set_schedule(
            chat_id, schedule.local_time, upcoming.at, upcoming.local_day, now, schedule.thread_id
        )

    async def plan_due(self, limit: int = 5000) -> int:
        """Write a ledger row for every slot that has come, owe its push (bulk) and move each
        schedule on, in one commit.

        Only a chat's latest slot is owed: sent if it is less than the grace period old,
        skipped (and logged) otherwise. Plans at most `limit` schedules; returns how many.
        """
        now = self._clock.now()
        decisions = []
        for item, zone_key in await self._daily.due_schedules(now, limit):
            zone = zone_or(zone_key, self._chats.default_zone)
            at = time.fromisoformat(item.local_time)
            slot = latest_slot(now, at, zone)
            late = now - slot.at
            status = PushStatus.PENDING if late <= self.grace else PushStatus.SKIPPED
            if status is PushStatus.SKIPPED or slot.local_day != item.next_day:
                log.warning(
                    "chat %s: daily push for %s missed (%s late); skipped",
                    item.chat_id,
                    item.next_day if status is PushStatus.PENDING else slot.local_day,
                    late if status is PushStatus.SKIPPED else now - item.next_slot_at,
                )
            upcoming = next_slot(now, at, zone)
            decisions.append(
                SlotDecision(
                    item.chat_id,
                    slot.local_day,
                    slot.at,
                    status,
                    upcoming.at,
                    upcoming.local_day,
                    item.thread_id,
                )
            )
        if not decisions:
            return 0
        owed = [
            daily_push(d.chat_id, d.local_day, d.thread_id)
            for d in decisions
            if d.status is PushStatus.PENDING
        ]
        async with self._store.transaction() as tx:
            await tx.record_slots(decisions, now)
            await self._outbox.owe_many(tx, owed)
        return len(decisions)

    async def plan_all(self, batch: int = 5000) -> int:
        """Plan every slot that has come, `batch` schedules per commit; how many."""
        planned = total = await self.plan_due(batch)
        while planned == batch:
            planned = await self.plan_due(batch)
            total += planned
        return total

    async def ask_for(self, push: Push, chat: ChatRef, thread_id: int | None = None) -> Ask:
        """The question for a push: the one stored for it before (a retry), or a new one (in
        the forum topic `thread_id`)."""
        if push.ask_id is not None:
            ask = await self._asking.get(push.ask_id)
            question = None if ask is None else self._catalog.question_of(ask)
            if ask is not None and question is not None and ask.chat_id == push.chat_id:
                return ask
        draft = await self._asking.draft(
            chat,
            thread_id,
            origin=AskOrigin.DAILY,
            open_for=self.open_for,
            question_id=await self._due_review(chat),
        )
        return await self._daily.attach_push_ask(push, draft)

    async def _due_review(self, chat: ChatRef) -> str | None:
        """In a private chat the daily question is the learner's most overdue card, if any."""
        if self._memory is None or chat.kind.is_group:
            return None
        deck = await self._chats.deck_for(chat.id)
        due = await self._memory.due_cards(chat.id, deck.id, self._clock.now(), 1)
        return due[0].question_id if due else None
