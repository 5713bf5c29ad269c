"""Command handlers: /start, /help, /quiz, /stop, /me, /leaderboard, /timezone."""

from __future__ import annotations

from telegram import Message, Update
from telegram.constants import ChatType
from telegram.ext import ContextTypes

from bot.core.boards import BoardService
from bot.core.chats import ChatService
from bot.core.daily import DailyService
from bot.core.quiz import Queued, QuizService, StillOpen
from bot.core.rounds import NoRound, NotAllowed, RoundRunning, RoundService
from bot.core.rules.mastery import NoSuchTopic
from bot.core.topics import TopicService
from bot.handlers.admin import ADMINS_ONLY, may_change_settings
from bot.handlers.common import chat_ref, player, reply, thread_of
from bot.handlers.throttle import SLOW_DOWN, CommandThrottle, OncePer, Verdict
from bot.parsing import (
    ShowTimezone,
    Usage,
    arguments_of,
    parse_leaderboard,
    parse_quiz,
    parse_timezone,
)
from bot.render import boards as render_boards
from bot.render import questions as render
from bot.render import rounds as render_rounds
from bot.render import topics as render_topics
from bot.workers.sender import Sender


async def allowed(throttle: CommandThrottle, message: Message) -> bool:
    """Private chats answer freely; in a group a member repeating commands is told once."""
    if message.chat.type == ChatType.PRIVATE or message.from_user is None:
        return True
    verdict = throttle.check(message.chat_id, message.from_user.id)
    if verdict is Verdict.WARN:
        await reply(message, SLOW_DOWN)
    return verdict is Verdict.ALLOW


class CommandHandlers:
    def __init__(
        self,
        quiz: QuizService,
        rounds: RoundService,
        boards: BoardService,
        chats: ChatService,
        daily: DailyService,
        sender: Sender,
        throttle: CommandThrottle,
        pointed: OncePer,
        topics: TopicService,
    ) -> None:
        self._topics = topics
        self._pointed = pointed
        self._quiz = quiz
        self._rounds = rounds
        self._boards = boards
        self._chats = chats
        self._daily = daily
        self._sender = sender
        self._throttle = throttle

    async def help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None or not await allowed(self._throttle, message):
            return
        deck = await self._chats.deck_for(message.chat_id)
        await message.reply_text(
            render.help_message(deck), do_quote=False, message_thread_id=thread_of(message)
        )

    async def quiz(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None or not await allowed(self._throttle, message):
            return
        request = parse_quiz(arguments_of(message.text or ""))
        if isinstance(request, Usage):
            await reply(message, request.text)
            return
        chat, thread, topic = chat_ref(message.chat), thread_of(message), request.topic
        outcome: Queued | StillOpen | RoundRunning | NoSuchTopic
        if request.size is None:
            outcome = await self._quiz.quiz(chat, thread, topic)
            if isinstance(outcome, StillOpen):
                if self._pointed.first(outcome.ask.id):
                    await reply(message, render.STILL_OPEN, to=outcome.ask.message_id)
                return
        else:
            outcome = await self._rounds.start(chat, thread, user.id, request.size, topic)
            if isinstance(outcome, RoundRunning):
                await reply(message, render_rounds.ROUND_RUNNING)
                return
        if isinstance(outcome, NoSuchTopic):
            await reply(message, render_topics.no_such_topic(outcome))
            return
        self._sender.kick(chat.id)

    async def stop(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return

        async def is_admin() -> bool:
            return await may_change_settings(message, context)

        outcome = await self._rounds.stop(message.chat_id, user.id, is_admin)
        if isinstance(outcome, NoRound):
            await reply(message, render_rounds.NO_ROUND)
        elif isinstance(outcome, NotAllowed):
            await reply(message, render_rounds.STOP_REFUSED)
        else:
            self._sender.kick(message.chat_id)

    async def me(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None or not await allowed(self._throttle, message):
            return
        if message.chat.type == ChatType.PRIVATE:
            me = await self._topics.private_me(message.chat_id, user.id)
            await reply(message, render_topics.private_me_message(me))
            return
        summary = await self._boards.player_summary(message.chat_id, user.id)
        await reply(message, render_boards.group_me_message(player(user).display_name, summary))

    async def leaderboard(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None or not await allowed(self._throttle, message):
            return
        kind = parse_leaderboard(arguments_of(message.text or ""))
        if isinstance(kind, Usage):
            await reply(message, kind.text)
            return
        board = await self._boards.leaderboard(message.chat_id, kind, user.id)
        zone = await self._chats.zone_of(message.chat_id)
        await reply(message, render_boards.leaderboard_message(board, kind, zone.key))

    async def timezone(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is None or not await allowed(self._throttle, message):
            return
        request = parse_timezone(arguments_of(message.text or ""))
        if isinstance(request, Usage):
            await reply(message, request.text)
            return
        if isinstance(request, ShowTimezone):
            zone = await self._chats.zone_of(message.chat_id)
            await reply(message, render.timezone_status(zone.key))
            return
        if not await may_change_settings(message, context):
            await reply(message, ADMINS_ONLY)
            return
        await self._chats.set_timezone(chat_ref(message.chat), request.zone)
        await self._daily.reschedule(message.chat_id)
        await reply(message, render.timezone_set(request.zone.key))

    async def other(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Anything else in a private chat (text, an unknown command, a sticker): a hint."""
        message = update.effective_message
        if message is not None:
            await reply(message, render.NOT_A_COMMAND)
