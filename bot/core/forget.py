"""`/forgetme`: a learner's data deleted everywhere, and the leaderboards recounted without them."""

from __future__ import annotations

from bot.core.chats import ChatService, bounds_in
from bot.core.memory.scheduling import Memory
from bot.core.ports import ForgetStore, PeriodBounds


class ForgetService:
    def __init__(
        self, *, store: ForgetStore, chats: ChatService, memory: Memory | None = None
    ) -> None:
        self._store = store
        self._chats = chats
        self._memory = memory

    async def forget(self, user_id: int) -> int:
        """Delete what quizbot keeps about the user; the number of chats whose boards changed."""
        chats = await self._store.answered_chats(user_id)
        bounds: dict[int, PeriodBounds] = {
            chat_id: bounds_in(await self._chats.zone_of(chat_id)) for chat_id in chats
        }
        await self._store.forget_user(user_id, bounds)
        if self._memory is not None:
            self._memory.refitted(user_id)  # their fitted parameters are gone too
        return len(chats)
