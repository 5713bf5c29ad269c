"""What the daily fan-out owes: each chat's question of the day, as bulk traffic.

The push's question is drafted when it is first prepared (not when its slot is planned: a
fan-out of thousands would draft them all at once) and kept on the ledger row, so a retry
posts the same question. The ledger row ends with the effect: sent, or failed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import date, datetime

from bot.core.catalog import Catalog
from bot.core.chats import ChatService
from bot.core.delivery import OwedKind
from bot.core.model import Ask, ChatRef, Effect, NewEffect, Push, PushStatus
from bot.core.ports import AskStore, DailyStore, Writes
from bot.core.quiz.asking import PostQuestion, post_view

DAILY = "daily"
GONE = "chat inactive or unknown"


def daily_push(chat_id: int, local_day: date, thread_id: int | None = None) -> NewEffect:
    return NewEffect(
        chat_id,
        DAILY,
        thread_id=thread_id,
        payload={"day": local_day.isoformat()},
        bulk=True,
        dedupe_key=f"{DAILY}:{chat_id}:{local_day.isoformat()}",
    )


def _day(effect: Effect) -> date | None:
    try:
        return date.fromisoformat(str(effect.payload.get("day")))
    except ValueError:
        return None


class DailyQuestionKind(OwedKind[PostQuestion]):
    name = DAILY

    def __init__(
        self,
        *,
        daily: DailyStore,
        asks: AskStore,
        chats: ChatService,
        catalog: Catalog,
        ask_for: Callable[[Push, ChatRef, int | None], Awaitable[Ask]],
        clock: Callable[[], datetime],
    ) -> None:
        self._daily = daily
        self._asks = asks
        self._chats = chats
        self._catalog = catalog
        self._ask_for = ask_for
        self._now = clock

    async def prepare(self, effect: Effect) -> PostQuestion | None:
        day = _day(effect)
        push = None if day is None else await self._daily.push_for(effect.chat_id, day)
        if push is None or push.status is not PushStatus.PENDING:
            return None
        chat = await self._chats.deliverable(push.chat_id)
        if chat is None:
            await self._daily.mark_push_attempt(push, GONE, final=True, now=self._now())
            return None
        ask = await self._ask_for(push, chat, effect.thread_id)
        return await post_view(effect, ask, self._asks, self._chats, self._catalog)

    async def delivered(
        self, tx: Writes, shown: PostQuestion, message_id: int | None, now: datetime
    ) -> None:
        day = _day(shown.effect)
        if day is not None and message_id is not None:
            await tx.mark_push_sent(shown.ask.chat_id, day, shown.ask.id, message_id, now)

    async def retrying(self, tx: Writes, shown: PostQuestion, error: str, now: datetime) -> None:
        await self._attempt(tx, shown.effect, error, final=False, now=now)

    async def failed(self, tx: Writes, shown: PostQuestion, error: str, now: datetime) -> None:
        await self._attempt(tx, shown.effect, error, final=True, now=now)

    async def abandoned(self, tx: Writes, effect: Effect, error: str, now: datetime) -> None:
        await self._attempt(tx, effect, error, final=True, now=now)

    async def _attempt(
        self, tx: Writes, effect: Effect, error: str, *, final: bool, now: datetime
    ) -> None:
        day = _day(effect)
        if day is not None:
            await tx.push_attempt(effect.chat_id, day, error, final=final, now=now)
