"""Asking: choosing a chat's next question and owing its message (`question`), shared by
`/quiz`, rounds, reviews and daily pushes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from random import Random
from zoneinfo import ZoneInfo

from bot.core.catalog import Catalog
from bot.core.chats import ChatService
from bot.core.clock import Clock
from bot.core.delivery import Outbox, OwedKind, notice
from bot.core.model import Ask, AskDraft, AskOrigin, ChatRef, Effect, NewEffect, RoundEnd
from bot.core.ports import AskStore, Writes
from bot.core.rules.selection import next_question, shuffled_option_order
from content.models import Question

QUESTION = "question"
COULD_NOT_POST = "⚠️ Sorry, Telegram would not take that question ({reason}). Try /quiz again."


@dataclass(frozen=True)
class QuizConfig:
    group_open: timedelta = timedelta(seconds=300)
    round_open: timedelta = timedelta(seconds=60)


@dataclass(frozen=True)
class PostQuestion:
    """A question to post: in a group with its deadline and live count, in private plain."""

    effect: Effect
    ask: Ask
    question: Question
    deck_title: str
    zone: ZoneInfo
    answered: int


class QuestionKind(OwedKind[PostQuestion]):
    """Post an ask. Posted late (flood control, retries), a timed question still gets its full
    time; one Telegram will never take closes, ends its round and tells the chat why."""

    name = QUESTION

    def __init__(
        self, asks: AskStore, chats: ChatService, catalog: Catalog, outbox: Outbox
    ) -> None:
        self._asks = asks
        self._chats = chats
        self._catalog = catalog
        self._outbox = outbox

    async def prepare(self, effect: Effect) -> PostQuestion | None:
        ask = None if effect.ask_id is None else await self._asks.get_ask(effect.ask_id)
        if ask is None or ask.is_closed:
            return None  # closed before it could be posted (/stop): nothing to show
        return await post_view(effect, ask, self._asks, self._chats, self._catalog)

    async def delivered(
        self, tx: Writes, shown: PostQuestion, message_id: int | None, now: datetime
    ) -> None:
        ask = shown.ask
        if message_id is not None:
            await tx.set_ask_message(ask.id, message_id, now)
        if ask.closes_at is not None:
            await tx.extend_ask(ask.id, max(ask.closes_at, now + (ask.closes_at - ask.asked_at)))

    async def failed(self, tx: Writes, shown: PostQuestion, error: str, now: datetime) -> None:
        await tx.close_ask(shown.ask.id, now)
        if shown.ask.round_id is not None:
            await tx.end_round(shown.ask.round_id, RoundEnd.STOPPED, now)
        text = COULD_NOT_POST.format(reason=error[:100])
        await self._outbox.owe(tx, notice(shown.effect.chat_id, text, shown.effect.thread_id))


async def post_view(
    effect: Effect, ask: Ask, asks: AskStore, chats: ChatService, catalog: Catalog
) -> PostQuestion | None:
    """How `ask` is posted (shared with the daily push)."""
    question = catalog.question_of(ask)
    if question is None:
        return None
    answered = await asks.answer_count(ask.id) if ask.closes_at else 0
    zone = await chats.zone_of(ask.chat_id)
    return PostQuestion(effect, ask, question, catalog.title(ask.deck_id), zone, answered)


class Asking:
    """Chooses questions and stores asks; shared by `/quiz`, rounds and daily pushes."""

    def __init__(
        self,
        *,
        asks: AskStore,
        chats: ChatService,
        catalog: Catalog,
        clock: Clock,
        config: QuizConfig,
        rng: Random,
        outbox: Outbox,
    ) -> None:
        self._asks = asks
        self._chats = chats
        self._catalog = catalog
        self._clock = clock
        self._config = config
        self._rng = rng
        self._outbox = outbox
        outbox.register(QuestionKind(asks, chats, catalog, outbox))

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
            picks=question.picks,
        )

    async def get(self, ask_id: int) -> Ask | None:
        return await self._asks.get_ask(ask_id)

    async def post(self, tx: Writes, draft: AskDraft) -> Ask:
        """Store the ask and owe its message, in the caller's transaction."""
        ask = await tx.create_ask(draft)
        question = NewEffect(ask.chat_id, QUESTION, thread_id=ask.thread_id, ask_id=ask.id)
        await self._outbox.owe(tx, question)
        return ask
