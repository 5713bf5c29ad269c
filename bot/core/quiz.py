"""Asking: choosing a chat's next question, `/quiz`, and taking answers."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from random import Random

from bot.core.catalog import Catalog
from bot.core.chats import ChatService
from bot.core.clock import Clock
from bot.core.memory.plan import next_review_question
from bot.core.memory.scheduling import Memory
from bot.core.model import (
    Ask,
    AskDraft,
    AskOrigin,
    ChatRef,
    EffectKind,
    NewEffect,
    Player,
    Round,
    RoundEnd,
)
from bot.core.ports import AskStore, MemoryStore, RoundStore, Store, Writes
from bot.core.rules.mastery import NoSuchTopic, resolve_topic
from bot.core.rules.periods import period_keys
from bot.core.rules.scoring import (
    AlreadyAnswered,
    AnswerResult,
    Invalid,
    Recorded,
    TooLate,
    is_correct,
)
from bot.core.rules.selection import next_question, shuffled_option_order


@dataclass(frozen=True)
class QuizConfig:
    group_open: timedelta = timedelta(seconds=300)
    round_open: timedelta = timedelta(seconds=60)


@dataclass(frozen=True)
class Queued:
    """The question is stored and its message is owed (a worker sends it)."""

    ask: Ask


@dataclass(frozen=True)
class StillOpen:
    """A group already has an open `/quiz` question here: answer that one first."""

    ask: Ask


class Asking:
    """Chooses questions and stores asks; shared by `/quiz`, rounds and daily pushes."""

    def __init__(
        self,
        asks: AskStore,
        chats: ChatService,
        catalog: Catalog,
        clock: Clock,
        config: QuizConfig,
        rng: Random,
    ) -> None:
        self._asks = asks
        self._chats = chats
        self._catalog = catalog
        self._clock = clock
        self._config = config
        self._rng = rng

    async def draft(
        self,
        chat: ChatRef,
        thread_id: int | None,
        *,
        origin: AskOrigin = AskOrigin.QUIZ,
        round_id: int | None = None,
        open_for: timedelta | None = None,
        avoid: frozenset[str] = frozenset(),
        question_id: str | None = None,
        topic: str | None = None,
    ) -> AskDraft:
        """The chat's next question (`question_id`'s, if given and in the chat's deck; else
        from `topic` only, if given); a group one gets a deadline, a private one closes on its
        first answer."""
        now = self._clock.now()
        deck = await self._chats.deck_for(chat.id)
        state = await self._asks.pass_state(chat.id, deck.id)
        question, pass_no = next_question(deck, state, self._rng, avoid, topic)
        chosen = None if question_id is None else self._catalog.question(deck.id, question_id)
        if chosen is not None:
            question = chosen
        if open_for is None:
            open_for = self._config.round_open if round_id else self._config.group_open
        return AskDraft(
            chat_id=chat.id,
            thread_id=thread_id,
            deck_id=deck.id,
            question_id=question.id,
            pass_no=pass_no,
            option_order=shuffled_option_order(len(question.options), self._rng),
            asked_at=now,
            closes_at=now + open_for if chat.kind.is_group else None,
            origin=origin,
            round_id=round_id,
            question_hash=question.content_hash,
        )

    async def get(self, ask_id: int) -> Ask | None:
        return await self._asks.get_ask(ask_id)

    async def post(self, tx: Writes, draft: AskDraft) -> Ask:
        """Store the ask and owe its message, in the caller's transaction."""
        ask = await tx.create_ask(draft)
        effect = NewEffect(ask.chat_id, EffectKind.QUESTION, thread_id=ask.thread_id, ask_id=ask.id)
        await tx.enqueue(effect, self._clock.now())
        return ask


class QuizService:
    def __init__(
        self,
        store: Store,
        asks: AskStore,
        rounds: RoundStore,
        asking: Asking,
        chats: ChatService,
        catalog: Catalog,
        clock: Clock,
        memory: Memory | None = None,
        cards: MemoryStore | None = None,
    ) -> None:
        self._cards = cards
        self._store = store
        self._asks = asks
        self._rounds = rounds
        self._asking = asking
        self._chats = chats
        self._catalog = catalog
        self._clock = clock
        self._memory = memory or Memory()

    async def quiz(
        self, chat: ChatRef, thread_id: int | None, topic: str | None = None
    ) -> Queued | StillOpen | NoSuchTopic:
        """`/quiz`: one question. A group gets no second one while one is open in the thread.
        `/quiz TOPIC`: from the deck's topic `topic` names (as typed); naming none or several
        changes nothing."""
        chosen: str | None = None
        if topic is not None:
            found = resolve_topic(await self._chats.deck_for(chat.id), topic)
            if isinstance(found, NoSuchTopic):
                return found
            chosen = found
        if chat.kind.is_group:
            open_ask = await self._asks.open_quiz_ask(chat.id, thread_id, self._clock.now())
            if open_ask is not None:
                return StillOpen(open_ask)
        draft = await self._asking.draft(chat, thread_id, topic=chosen)
        async with self._store.transaction() as tx:
            # The chat's row first: writing it holds it until the commit, so a crowd asking at
            # once (on any replica) takes turns here and each sees the question asked before.
            await tx.upsert_chat(chat, self._clock.now())
            if chat.kind.is_group:
                open_ask = await tx.open_quiz_ask(chat.id, thread_id, self._clock.now())
                if open_ask is not None:
                    return StillOpen(open_ask)
            ask = await self._asking.post(tx, draft)
        return Queued(ask)

    async def answer(
        self, *, chat_id: int, message_id: int | None, ask_id: int, position: int, player: Player
    ) -> AnswerResult:
        """Check a press against the stored ask and record it if it is the user's first.

        A group answer is committed alone (the hot path). A private answer closes its
        question and owes the marked question, the explanation and, after a round's last
        question, the round's summary, all in one commit.
        """
        ask = await self._asks.get_ask(ask_id)
        if ask is None or ask.chat_id != chat_id:
            return Invalid("no such question in this chat")
        if message_id is not None and ask.message_id is not None and ask.message_id != message_id:
            return Invalid("the button does not belong to this message")
        if not 0 <= position < len(ask.option_order):
            return Invalid("no such option")
        question = self._catalog.question_of(ask)
        if question is None:
            return Invalid("the question is no longer in its deck")
        now = self._clock.now()
        if ask.is_closed or (ask.closes_at is not None and ask.closes_at <= now):
            existing = await self._asks.get_answer(ask.id, player.id)
            if existing is not None:
                return AlreadyAnswered(ask, question, existing)
            return TooLate(ask, question)
        correct = is_correct(ask, position)
        periods = period_keys(now, await self._chats.zone_of(chat_id))
        # The statement that stores the answer returns the learner's card and (by a trigger)
        # logs the press: only a changed card costs another statement.
        review = partial(
            self._memory.review,
            user_id=player.id,
            deck_id=ask.deck_id,
            question_id=ask.question_id,
            correct=correct,
            now=now,
        )
        if ask.closes_at is not None:  # a group answer: the hot path, no transaction
            answer = await self._asks.record_answer(
                ask, player, position, correct, now, periods=periods, review=review
            )
        else:  # private: closes its question and owes the marked question and explanation
            async with self._store.transaction() as tx:
                answer = await tx.record_answer(
                    ask, player, position, correct, now, close=True, periods=periods
                )
                if answer is not None:
                    updated = review(answer.card_before)
                    if updated is not None:
                        await tx.save_card(updated)
                    await self._owe_private_reveal(tx, ask, player.id)
        if answer is None:
            existing = await self._asks.get_answer(ask.id, player.id)
            if existing is None:  # the question closed between the read and the write
                return TooLate(ask, question)
            return AlreadyAnswered(ask, question, existing)
        return Recorded(ask, question, answer)

    async def _round_goes_on(self, running: Round, asked: int, deck_id: str, now: datetime) -> bool:
        if not running.is_review:
            return asked < running.size
        # Read on the transaction's connection: it sees this answer and the card it moved.
        if self._cards is None:
            return False
        following = await next_review_question(self._cards, self._asks, running, deck_id, now)
        return following is not None

    async def _owe_private_reveal(self, tx: Writes, ask: Ask, user_id: int) -> None:
        now = self._clock.now()
        effect = partial(NewEffect, ask.chat_id, thread_id=ask.thread_id, user_id=user_id)
        await tx.enqueue(effect(EffectKind.ANSWERED, ask_id=ask.id), now)
        running = None if ask.round_id is None else await self._rounds.get_round(ask.round_id)
        if running is None or not running.is_running:
            await tx.enqueue(effect(EffectKind.EXPLANATION, ask_id=ask.id), now)
            return
        asked = await tx.round_asked(running.id)
        if await self._round_goes_on(running, asked, ask.deck_id, now):
            explain = effect(
                EffectKind.EXPLANATION, ask_id=ask.id, round_id=running.id, next_asked=asked
            )
            await tx.enqueue(explain, now)
            return
        # The last explanation carries the summary: one message fewer in the private chat's
        # burst, so a `/quiz` right after a round is not held back by the flood limit.
        ended = await tx.end_round(running.id, RoundEnd.FINISHED, now)
        summary_of = running.id if ended else None
        await tx.enqueue(effect(EffectKind.EXPLANATION, ask_id=ask.id, round_id=summary_of), now)
