"""`/forgetme`: a learner's data deleted everywhere, and the leaderboards recounted without them."""

from __future__ import annotations

from bot.core.chats import ChatService, bounds_in
from bot.core.ports import ForgetStore, PeriodBounds


class ForgetService:
    def __init__(self, *, store: ForgetStore, chats: ChatService) -> None:
        self._store = store
        self._chats = chats

    async def forget(self, user_id: int) -> int:
        """Delete what quizbot keeps about the user; the number of chats whose boards changed."""
        chats = await self._store.answered_chats(user_id)
        bounds: dict[int, PeriodBounds] = {
            chat_id: bounds_in(await self._chats.zone_of(chat_id)) for chat_id in chats
        }
        await self._store.forget_user(user_id, bounds)
        return len(chats)
