"""Taking the answers to questions: a letter pressed on a one-answer question, and on a
"choose N" question letters picked (and unpicked) and then submitted. All or nothing: a
"choose N" answer is right when exactly the right letters were picked.

The picks before Submit are stored (`SelectionStore`), so a restart or another replica loses
none; in a private chat the question's keyboard is edited to tick them (an owed `picks`
message, cosmetic: the press's own answer always says what is picked).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import partial

from bot.core.catalog import Catalog
from bot.core.chats import ChatService
from bot.core.clock import Clock
from bot.core.delivery import Outbox, OwedKind
from bot.core.memory.plan import next_review_question
from bot.core.memory.scheduling import Memory
from bot.core.model import Ask, Effect, NewEffect, Player, Round, RoundEnd
from bot.core.ports import AskStore, MemoryStore, RoundStore, SelectionStore, Store, Writes
from bot.core.quiz.reveals import ANSWERED, EXPLANATION
from bot.core.rules.periods import period_keys
from bot.core.rules.scoring import (
    AlreadyAnswered,
    AnswerResult,
    Invalid,
    Recorded,
    TooLate,
    are_correct,
    is_correct,
)
from content.models import Question

PICKS = "picks"


@dataclass(frozen=True)
class Picked:
    """A letter of a "choose N" question picked or unpicked: what is picked now."""

    ask: Ask
    question: Question
    picked: frozenset[int]


@dataclass(frozen=True)
class WrongCount:
    """Submit pressed with fewer or more letters picked than the question asks for."""

    ask: Ask
    picked: frozenset[int]


@dataclass(frozen=True)
class ShowPicks:
    """A private "choose N" question's keyboard, with the learner's picks ticked."""

    effect: Effect
    ask: Ask
    picked: frozenset[int]


class PicksKind(OwedKind[ShowPicks]):
    name = PICKS

    def __init__(self, asks: AskStore, picks: SelectionStore) -> None:
        self._asks = asks
        self._picks = picks

    async def prepare(self, effect: Effect) -> ShowPicks | None:
        ask = None if effect.ask_id is None else await self._asks.get_ask(effect.ask_id)
        if ask is None or ask.message_id is None or ask.is_closed or effect.user_id is None:
            return None  # answered meanwhile: its marked version replaces the keyboard
        return ShowPicks(effect, ask, await self._picks.picks_of(ask.id, effect.user_id))


class Answers:
    """The presses on questions' buttons (mixed into `QuizService`, which wires these)."""

    _store: Store
    _asks: AskStore
    _rounds: RoundStore
    _picks: SelectionStore
    _chats: ChatService
    _catalog: Catalog
    _clock: Clock
    _outbox: Outbox
    _memory: Memory
    _cards: MemoryStore | None

    async def answer(
        self, *, chat_id: int, message_id: int | None, ask_id: int, position: int, player: Player
    ) -> AnswerResult:
        """A letter pressed on a one-answer question: recorded if it is the user's first.

        A group answer is committed alone (the hot path). A private answer closes its
        question and owes the marked question, the explanation and, after a round's last
        question, the round's summary, all in one commit.
        """
        found = await self._pressed(chat_id, message_id, ask_id, position)
        if isinstance(found, Invalid):
            return found
        ask, question = found
        if ask.is_multi:
            return Invalid("a letter of a question that takes several: pick, then submit")
        late = await self._if_closed(ask, question, player)
        if late is not None:
            return late
        return await self._record(
            ask, question, player, frozenset({position}), is_correct(ask, position)
        )

    async def pick(
        self, *, chat_id: int, message_id: int | None, ask_id: int, position: int, player: Player
    ) -> Picked | AlreadyAnswered | TooLate | Invalid:
        """A letter of a "choose N" question: picked, or unpicked when it was picked."""
        found = await self._pressed(chat_id, message_id, ask_id, position)
        if isinstance(found, Invalid):
            return found
        ask, question = found
        if not ask.is_multi:
            return Invalid("a pick on a question that takes one letter")
        late = await self._if_closed(ask, question, player)
        if late is not None:
            return late
        picked = await self._picks.toggle_pick(ask.id, player.id, position, self._clock.now())
        if ask.closes_at is None:  # private: the keyboard ticks what is picked
            async with self._store.transaction() as tx:
                await self._outbox.owe(tx, _picks_effect(ask, player.id))
        return Picked(ask, question, picked)

    async def submit(
        self, *, chat_id: int, message_id: int | None, ask_id: int, player: Player
    ) -> AnswerResult | WrongCount:
        """Submit on a "choose N" question: the picks are the answer when there are N."""
        found = await self._pressed(chat_id, message_id, ask_id, 0)
        if isinstance(found, Invalid):
            return found
        ask, question = found
        if not ask.is_multi:
            return Invalid("Submit on a question that takes one letter")
        late = await self._if_closed(ask, question, player)
        if late is not None:
            return late
        picked = await self._picks.picks_of(ask.id, player.id)
        if len(picked) != ask.picks:
            return WrongCount(ask, picked)
        return await self._record(ask, question, player, picked, are_correct(ask, picked))

    async def _pressed(
        self, chat_id: int, message_id: int | None, ask_id: int, position: int
    ) -> tuple[Ask, Question] | Invalid:
        """The ask and question a press refers to, or why it refers to none (forged, stale,
        another chat's or another message's button)."""
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
        return ask, question

    async def _if_closed(
        self, ask: Ask, question: Question, player: Player
    ) -> AlreadyAnswered | TooLate | None:
        now = self._clock.now()
        if ask.is_closed or (ask.closes_at is not None and ask.closes_at <= now):
            existing = await self._asks.get_answer(ask.id, player.id)
            if existing is not None:
                return AlreadyAnswered(ask, question, existing)
            return TooLate(ask, question)
        return None

    async def _record(
        self,
        ask: Ask,
        question: Question,
        player: Player,
        positions: frozenset[int],
        correct: bool,
    ) -> AnswerResult:
        now = self._clock.now()
        periods = period_keys(now, await self._chats.zone_of(ask.chat_id))
        position = min(positions)
        picked = positions if ask.is_multi else None
        await self._memory.prepare(player.id, ask.deck_id)  # cached: a read only when stale
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
                ask, player, position, correct, now, periods=periods, review=review, picked=picked
            )
        else:  # private: closes its question and owes the marked question and explanation
            async with self._store.transaction() as tx:
                answer = await tx.record_answer(
                    ask, player, position, correct, now, close=True, periods=periods, picked=picked
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


def _picks_effect(ask: Ask, user_id: int) -> NewEffect:
    return NewEffect(ask.chat_id, PICKS, thread_id=ask.thread_id, ask_id=ask.id, user_id=user_id)
