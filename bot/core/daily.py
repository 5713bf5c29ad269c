"""Daily questions: schedules in local time, the due slots, and catching up after downtime."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.core.model import ChatKind, ChatRef
from bot.core.schedule import Slot, latest_slot, next_slot
from bot.core.service import NewAsk, QuizService
from storage.daily import DailyRepository, Push, Schedule, SlotDecision

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DailyStatus:
    schedule: Schedule | None
    zone: ZoneInfo

    @property
    def on(self) -> bool:
        return self.schedule is not None and self.schedule.enabled


class DailyService:
    def __init__(self, quiz: QuizService, *, open_for: timedelta, grace: timedelta) -> None:
        self.quiz = quiz
        self.repo = DailyRepository(quiz.repo.db)
        self.open_for = open_for
        self.grace = grace

    async def turn_on(self, chat: ChatRef, at: time, zone: ZoneInfo | None) -> Slot:
        """Push every day at `at` local time (the zone, when given, becomes the chat's)."""
        if zone is not None:
            await self.quiz.set_timezone(chat, zone)
        else:
            await self.quiz.repo.upsert_chat(chat, self.quiz.clock.now())
        now = self.quiz.clock.now()
        upcoming = next_slot(now, at, await self.quiz.zone_of(chat.id))
        await self.repo.set(chat.id, f"{at:%H:%M}", upcoming.at, upcoming.local_day, now)
        return upcoming

    async def turn_off(self, chat_id: int) -> bool:
        return await self.repo.disable(chat_id, self.quiz.clock.now())

    async def status(self, chat_id: int) -> DailyStatus:
        return DailyStatus(await self.repo.get(chat_id), await self.quiz.zone_of(chat_id))

    async def reschedule(self, chat_id: int) -> None:
        """After a time-zone change: the next slot in the new zone."""
        schedule = await self.repo.get(chat_id)
        if schedule is None or not schedule.enabled:
            return
        now = self.quiz.clock.now()
        at = time.fromisoformat(schedule.local_time)
        upcoming = next_slot(now, at, await self.quiz.zone_of(chat_id))
        await self.repo.set(chat_id, schedule.local_time, upcoming.at, upcoming.local_day, now)

    async def plan_due(self, limit: int = 5000) -> int:
        """Write a ledger row for every slot that has come and move each schedule on.

        Only a chat's latest slot is owed: sent if it is less than the grace period old,
        skipped (and logged) otherwise. Plans at most `limit` schedules; returns how many.
        """
        now = self.quiz.clock.now()
        decisions = []
        for item, zone_key in await self.repo.due(now, limit):
            zone = self._zone(zone_key)
            at = time.fromisoformat(item.local_time)
            slot = latest_slot(now, at, zone)
            late = now - slot.at
            status = "pending" if late <= self.grace else "skipped"
            if status == "skipped" or slot.local_day != item.next_day:
                log.warning(
                    "chat %s: daily push for %s missed (%s late); skipped",
                    item.chat_id,
                    item.next_day if status == "pending" else slot.local_day,
                    late if status == "skipped" else now - item.next_slot_at,
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
                )
            )
        await self.repo.record_slots(decisions, now)
        return len(decisions)

    def _zone(self, key: str | None) -> ZoneInfo:
        try:
            return ZoneInfo(key) if key else self.quiz.config.default_zone
        except (ZoneInfoNotFoundError, ValueError):
            return self.quiz.config.default_zone

    async def pending(self, limit: int = 500) -> list[Push]:
        return await self.repo.pending(limit)

    async def deliverable_chat(self, chat_id: int) -> ChatRef | None:
        """The chat a push goes to, or None when it is unknown, removed or a channel."""
        settings = await self.quiz.chats.get(chat_id)
        if settings is None or not settings.active or settings.kind is ChatKind.CHANNEL:
            return None
        return ChatRef(settings.id, settings.kind)

    async def ask_for(self, push: Push, chat: ChatRef) -> NewAsk:
        """The question for a push: the one stored for it before (a retry), or a new one."""
        if push.ask_id is not None:
            ask = await self.quiz.repo.get_ask(push.ask_id)
            question = None if ask is None else self.quiz.question_of(ask)
            if ask is not None and question is not None and ask.chat_id == push.chat_id:
                return NewAsk(ask, question)
        new = await self.quiz.new_ask(chat, open_for=self.open_for, known_chat=True)
        await self.repo.attach_ask(push, new.ask.id)
        return new

    async def sent(self, push: Push, new: NewAsk, message_id: int) -> None:
        await self.repo.mark_sent(push, new.ask.id, message_id, self.quiz.clock.now())

    async def failed(self, push: Push, error: str, *, final: bool) -> None:
        await self.repo.mark_attempt(push, error, final=final, now=self.quiz.clock.now())

    async def chat_gone(self, push: Push, error: str) -> None:
        """403: the bot was removed or blocked; stop pushing there, keep the history."""
        await self.quiz.chat_removed(push.chat_id)
        await self.turn_off(push.chat_id)
        await self.failed(push, error, final=True)

    async def chat_moved(self, push: Push, new_chat_id: int) -> Push | None:
        await self.quiz.move_chat(push.chat_id, new_chat_id)
        return await self.repo.push_for(new_chat_id, push.local_day)
