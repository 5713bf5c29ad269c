"""Posting questions and round summaries: shared by commands, button presses and the ticker."""

from __future__ import annotations

from telegram import Bot
from telegram.error import TelegramError

from bot import render, render_group, render_rounds
from bot.core.domain import Ask, ChatRef
from bot.core.rounds import RoundService, RoundSummary
from bot.core.service import NewAsk, QuizService


class Poster:
    def __init__(self, quiz: QuizService, rounds: RoundService, bot: Bot) -> None:
        self.quiz = quiz
        self.rounds = rounds
        self.bot = bot

    async def question_text(self, new: NewAsk) -> str:
        ask, question = new.ask, new.question
        deck = self.quiz.decks[ask.deck_id]
        if ask.closes_at is None:
            return render.question_message(question, ask, deck.title)
        zone = await self.quiz.zone_of(ask.chat_id)
        return render_group.open_question_message(question, ask, deck.title, 0, zone)

    async def question(self, new: NewAsk) -> None:
        """Post a stored ask; if Telegram refuses it, the ask is forgotten (nobody saw it)."""
        ask = new.ask
        text = await self.question_text(new)
        try:
            sent = await self.bot.send_message(
                chat_id=ask.chat_id,
                message_thread_id=ask.thread_id,
                text=text,
                reply_markup=render.question_keyboard(ask),
            )
        except TelegramError:
            await self.quiz.discard_ask(ask)
            raise
        await self.quiz.attach_message(ask, sent.message_id)

    async def summary(self, summary: RoundSummary, *, group: bool) -> None:
        text = (
            render_rounds.group_summary(summary)
            if group
            else render_rounds.private_summary(summary)
        )
        await self.bot.send_message(
            chat_id=summary.round.chat_id, message_thread_id=summary.round.thread_id, text=text
        )

    async def step(self, step: NewAsk | RoundSummary | None, *, group: bool) -> None:
        """Post whatever a round does next."""
        if isinstance(step, NewAsk):
            await self.question(step)
        elif step is not None:
            await self.summary(step, group=group)

    async def after_close(self, ask: Ask) -> None:
        """A group round moves on when its question closes."""
        if ask.round_id is None or not await self.quiz.is_active(ask.chat_id):
            return
        settings = await self.quiz.chats.get(ask.chat_id)
        if settings is None:
            return
        chat = ChatRef(settings.id, settings.kind)
        await self.step(await self.rounds.after_close(ask, chat), group=True)
