"""Scores: `/me` (alias `/score`) and `/leaderboard [month|all]`."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import ContextTypes

from bot.core.boards import BoardService
from bot.core.chats import ChatService
from bot.core.topics import TopicService
from bot.handlers.common import Answering, player
from bot.parsing import Usage, arguments_of, parse_leaderboard
from bot.render import boards, topics


class BoardHandlers:
    def __init__(
        self,
        *,
        boards: BoardService,
        topics: TopicService,
        chats: ChatService,
        answering: Answering,
    ) -> None:
        self._boards = boards
        self._topics = topics
        self._chats = chats
        self._answering = answering

    async def me(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Private: the learner's totals and mastery; group: points, streaks and ranks here."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None or not await self._answering.allowed(message):
            return
        if message.chat.type == ChatType.PRIVATE:
            me = await self._topics.private_me(message.chat_id, user.id)
            await self._answering.reply(message, topics.private_me_message(me))
            return
        summary = await self._boards.player_summary(message.chat_id, user.id)
        text = boards.group_me_message(player(user).display_name, summary)
        await self._answering.reply(message, text)

    async def leaderboard(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None or not await self._answering.allowed(message):
            return
        kind = parse_leaderboard(arguments_of(message.text or ""))
        if isinstance(kind, Usage):
            await self._answering.reply(message, kind.text)
            return
        board = await self._boards.leaderboard(message.chat_id, kind, user.id)
        zone = await self._chats.zone_of(message.chat_id)
        await self._answering.reply(message, boards.leaderboard_message(board, kind, zone.key))
