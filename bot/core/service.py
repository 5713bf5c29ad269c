"""The quiz as the bot's handlers see it: ask a question, take an answer, report scores."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from random import Random

from bot.core.clock import Clock
from bot.core.domain import Ask, ChatRef, Player, UserStats
from bot.core.scoring import AlreadyAnswered, AnswerResult, Invalid, Recorded, TooLate, is_correct
from bot.core.selection import next_question, shuffled_option_order
from content.models import Deck, Question
from storage.repository import Repository


@dataclass(frozen=True)
class NewAsk:
    ask: Ask
    question: Question


class QuizService:
    def __init__(
        self,
        repo: Repository,
        decks: Mapping[str, Deck],
        clock: Clock,
        *,
        default_deck_id: str | None = None,
        rng: Random | None = None,
    ) -> None:
        if not decks:
            raise ValueError("at least one deck is needed")
        self.repo = repo
        self.decks = decks
        self.clock = clock
        self.default_deck_id = default_deck_id or sorted(decks)[0]
        if self.default_deck_id not in decks:
            raise ValueError(f"unknown default deck {self.default_deck_id!r}")
        self.rng = rng or Random()

    def deck_for(self, chat_id: int) -> Deck:
        return self.decks[self.default_deck_id]

    def question_of(self, ask: Ask) -> Question | None:
        deck = self.decks.get(ask.deck_id)
        if deck is None:
            return None
        return next((q for q in deck.questions if q.id == ask.question_id), None)

    async def new_ask(self, chat: ChatRef, thread_id: int | None = None) -> NewAsk:
        """Choose the chat's next question and store the ask (its message id comes later)."""
        now = self.clock.now()
        await self.repo.upsert_chat(chat, now)
        deck = self.deck_for(chat.id)
        state = await self.repo.pass_state(chat.id, deck.id)
        question, pass_no = next_question(deck, state, self.rng)
        ask = await self.repo.create_ask(
            chat_id=chat.id,
            thread_id=thread_id,
            deck_id=deck.id,
            question_id=question.id,
            pass_no=pass_no,
            option_order=shuffled_option_order(len(question.options), self.rng),
            asked_at=now,
            closes_at=None,
        )
        return NewAsk(ask, question)

    async def attach_message(self, ask: Ask, message_id: int) -> None:
        await self.repo.set_ask_message(ask.id, message_id)

    async def discard_ask(self, ask: Ask) -> None:
        await self.repo.delete_ask(ask.id)

    async def answer(
        self, *, chat_id: int, message_id: int | None, ask_id: int, position: int, player: Player
    ) -> AnswerResult:
        """Check a press against the stored ask and record it if it is the user's first."""
        ask = await self.repo.get_ask(ask_id)
        if ask is None or ask.chat_id != chat_id:
            return Invalid("no such question in this chat")
        if message_id is not None and ask.message_id is not None and ask.message_id != message_id:
            return Invalid("the button does not belong to this message")
        if not 0 <= position < len(ask.option_order):
            return Invalid("no such option")
        question = self.question_of(ask)
        if question is None:
            return Invalid("the question is no longer in its deck")
        existing = await self.repo.get_answer(ask.id, player.id)
        if existing is not None:
            return AlreadyAnswered(ask, question, existing)
        now = self.clock.now()
        if ask.is_closed or (ask.closes_at is not None and ask.closes_at <= now):
            return TooLate(ask, question)
        recorded = await self.repo.record_answer(
            ask, player, position, is_correct(ask, position), now, close=ask.closes_at is None
        )
        if not recorded.is_new:
            return AlreadyAnswered(ask, question, recorded.answer)
        return Recorded(ask, question, recorded.answer)

    async def stats(self, chat_id: int, user_id: int) -> UserStats:
        return await self.repo.user_stats(chat_id, user_id)
