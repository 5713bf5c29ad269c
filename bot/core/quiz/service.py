"""`/quiz` (one question, or in a group a pointer to the one that is open) and taking the
answers to questions of every kind."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import partial

from bot.core.catalog import Catalog
from bot.core.chats import ChatService
from bot.core.clock import Clock
from bot.core.delivery import Outbox
from bot.core.memory.plan import next_review_question
from bot.core.memory.scheduling import Memory
from bot.core.model import Ask, ChatRef, NewEffect, Player, Round, RoundEnd
from bot.core.ports import AskStore, MemoryStore, RoundStore, Store, Writes
from bot.core.quiz.asking import Asking
from bot.core.quiz.reveals import (
    ANSWERED,
    EXPLANATION,
    STILL_OPEN,
    AnsweredKind,
    ExplanationKind,
    RevealKind,
    StillOpenKind,
    still_open_key,
)
from bot.core.rounds.summary import RoundSummaries
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


@dataclass(frozen=True)
class Queued:
    """The question is stored and its message is owed (a worker sends it)."""

    ask: Ask


@dataclass(frozen=True)
class StillOpen:
    """A group already has an open `/quiz` question here: answer that one first. The group
    is owed one pointer to it, the first time it is asked for (`pointed`)."""

    ask: Ask
    pointed: bool = False


class QuizService:
    def __init__(
        self,
        *,
        store: Store,
        asks: AskStore,
        rounds: RoundStore,
        asking: Asking,
        chats: ChatService,
        catalog: Catalog,
        clock: Clock,
        outbox: Outbox,
        summaries: RoundSummaries,
        memory: Memory | None = None,
        cards: MemoryStore | None = None,
    ) -> None:
        self._cards = cards
        self._outbox = outbox
        outbox.register(RevealKind(asks, catalog))
        outbox.register(AnsweredKind(asks, catalog))
        outbox.register(ExplanationKind(asks, catalog, summaries))
        outbox.register(StillOpenKind(asks))
        self._store = store
        self._asks = asks
        self._rounds = rounds
        self._asking = asking
        self._chats = chats
        self._catalog = catalog
        self._clock = clock
        self._memory = memory or Memory()

    async def quiz(
        self,
        chat: ChatRef,
        thread_id: int | None,
        topic: str | None = None,
        *,
        message_id: int | None = None,
    ) -> Queued | StillOpen | NoSuchTopic:
        """`/quiz`: one question. A group gets no second one while one is open in the thread;
        the first `/quiz` (`message_id`) that finds it open is owed a pointer to it, however
        many ask, on whichever replica. `/quiz TOPIC`: from the deck's topic `topic` names (as
        typed); naming none or several changes nothing."""
        chosen: str | None = None
        if topic is not None:
            found = resolve_topic(await self._chats.deck_for(chat.id), topic)
            if isinstance(found, NoSuchTopic):
                return found
            chosen = found
        if chat.kind.is_group:
            open_ask = await self._asks.open_quiz_ask(chat.id, thread_id, self._clock.now())
            if open_ask is not None:
                return await self._point(open_ask, message_id)
        draft = await self._asking.draft(chat, thread_id, topic=chosen)
        async with self._store.transaction() as tx:
            # The chat's row first: writing it holds it until the commit, so a crowd asking at
            # once (on any replica) takes turns here and each sees the question asked before.
            await tx.upsert_chat(chat, self._clock.now())
            if chat.kind.is_group:
                open_ask = await tx.open_quiz_ask(chat.id, thread_id, self._clock.now())
                if open_ask is not None:
                    return StillOpen(open_ask, await self._owe_pointer(tx, open_ask, message_id))
            ask = await self._asking.post(tx, draft)
        return Queued(ask)

    async def _point(self, open_ask: Ask, message_id: int | None) -> StillOpen:
        async with self._store.transaction() as tx:
            return StillOpen(open_ask, await self._owe_pointer(tx, open_ask, message_id))

    async def _owe_pointer(self, tx: Writes, open_ask: Ask, message_id: int | None) -> bool:
        pointer = NewEffect(
            open_ask.chat_id,
            STILL_OPEN,
            thread_id=open_ask.thread_id,
            ask_id=open_ask.id,
            message_id=message_id,
            dedupe_key=still_open_key(open_ask.id),
        )
        return await self._outbox.owe(tx, pointer)

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
        await self._outbox.owe(tx, effect(ANSWERED, ask_id=ask.id))
        running = None if ask.round_id is None else await self._rounds.get_round(ask.round_id)
        if running is None or not running.is_running:
            await self._outbox.owe(tx, effect(EXPLANATION, ask_id=ask.id))
            return
        asked = await tx.round_asked(running.id)
        if await self._round_goes_on(running, asked, ask.deck_id, now):
            explain = effect(EXPLANATION, ask_id=ask.id, round_id=running.id, next_asked=asked)
            await self._outbox.owe(tx, explain)
            return
        # The last explanation carries the summary: one message fewer in the private chat's
        # burst, so a `/quiz` right after a round is not held back by the flood limit.
        ended = await tx.end_round(running.id, RoundEnd.FINISHED, now)
        summary_of = running.id if ended else None
        await self._outbox.owe(tx, effect(EXPLANATION, ask_id=ask.id, round_id=summary_of))
