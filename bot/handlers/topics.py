"""`/topics`: the learner's mastery of each topic of the chat's deck, weakest first."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import ContextTypes

from bot.core.topics import TopicService
from bot.handlers.common import Answering, player
from bot.render import topics


class TopicHandlers:
    def __init__(self, *, topics: TopicService, answering: Answering) -> None:
        self._topics = topics
        self._answering = answering

    async def topics(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """In a group the member who asked is named: the list is theirs, not the group's."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None or not await self._answering.allowed(message):
            return
        mastery = await self._topics.mastery(message.chat_id, user.id)
        learner = None if message.chat.type == ChatType.PRIVATE else player(user).display_name
        await self._answering.reply(message, topics.topics_message(mastery, learner))
