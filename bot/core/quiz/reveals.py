"""What answers and closes owe: a closed group question's reveal, a private answer's marked
question and explanation (with `Next ▶` or the round's summary), and the one pointer a group
gets to its open question."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.catalog import Catalog
from bot.core.delivery import OwedKind
from bot.core.model import Ask, Effect, NewEffect, Tally
from bot.core.ports import AskStore
from bot.core.rounds.summary import RoundSummaries, RoundSummary
from content.models import Question

REVEAL = "reveal"
ANSWERED = "answered"
EXPLANATION = "explanation"
STILL_OPEN = "still_open"


@dataclass(frozen=True)
class ShowReveal:
    """A closed group question edited: the right option, the explanation, the tally."""

    effect: Effect
    ask: Ask
    question: Question
    deck_title: str
    tally: Tally


@dataclass(frozen=True)
class MarkAnswered:
    """A private question edited: the right and the chosen option marked, buttons gone."""

    effect: Effect
    ask: Ask
    question: Question
    deck_title: str
    positions: frozenset[int]


@dataclass(frozen=True)
class Explain:
    """The explanation after a private answer; in a round with `Next ▶` (the effect's
    `next_asked`) or, after its last question, the round's summary."""

    effect: Effect
    ask: Ask
    question: Question
    correct: bool
    summary: RoundSummary | None = None


@dataclass(frozen=True)
class PointToOpen:
    """A group asked for a question while one is open in its topic: a reply pointing at it."""

    effect: Effect
    ask: Ask


class RevealKind(OwedKind[ShowReveal]):
    name = REVEAL

    def __init__(self, asks: AskStore, catalog: Catalog) -> None:
        self._asks = asks
        self._catalog = catalog

    async def prepare(self, effect: Effect) -> ShowReveal | None:
        ask = None if effect.ask_id is None else await self._asks.get_ask(effect.ask_id)
        question = None if ask is None else self._catalog.question_of(ask)
        if ask is None or question is None or ask.message_id is None:
            return None  # never posted: nothing to edit
        tally = await self._asks.tally(ask.id)
        return ShowReveal(effect, ask, question, self._catalog.title(ask.deck_id), tally)


def reveal(ask: Ask) -> NewEffect:
    return NewEffect(ask.chat_id, REVEAL, thread_id=ask.thread_id, ask_id=ask.id)


class _Answered:
    def __init__(self, asks: AskStore, catalog: Catalog) -> None:
        self._asks = asks
        self._catalog = catalog

    async def _found(self, effect: Effect) -> tuple[Ask, Question, frozenset[int], bool] | None:
        """The ask, its question and the learner's answer (positions, right) the effect is
        about; None when any is gone."""
        ask = None if effect.ask_id is None else await self._asks.get_ask(effect.ask_id)
        question = None if ask is None else self._catalog.question_of(ask)
        if ask is None or question is None or effect.user_id is None:
            return None
        answer = await self._asks.get_answer(ask.id, effect.user_id)
        return None if answer is None else (ask, question, answer.positions, answer.correct)


class AnsweredKind(_Answered, OwedKind[MarkAnswered]):
    name = ANSWERED

    async def prepare(self, effect: Effect) -> MarkAnswered | None:
        found = await self._found(effect)
        if found is None or found[0].message_id is None:
            return None
        ask, question, positions, _ = found
        return MarkAnswered(effect, ask, question, self._catalog.title(ask.deck_id), positions)


class ExplanationKind(_Answered, OwedKind[Explain]):
    name = EXPLANATION

    def __init__(self, asks: AskStore, catalog: Catalog, summaries: RoundSummaries) -> None:
        super().__init__(asks, catalog)
        self._summaries = summaries

    async def prepare(self, effect: Effect) -> Explain | None:
        found = await self._found(effect)
        if found is None:
            return None
        ask, question, _, correct = found
        summary = None
        if effect.round_id is not None and effect.next_asked is None:
            summary = await self._summaries.of(effect.round_id)
        return Explain(effect, ask, question, correct, summary)


class StillOpenKind(OwedKind[PointToOpen]):
    """Owed once per open question (its `dedupe_key`), however many members ask, on
    whichever replica: the reply to the first `/quiz` that found it open."""

    name = STILL_OPEN

    def __init__(self, asks: AskStore) -> None:
        self._asks = asks

    async def prepare(self, effect: Effect) -> PointToOpen | None:
        ask = None if effect.ask_id is None else await self._asks.get_ask(effect.ask_id)
        if ask is None or ask.is_closed:
            return None  # answered and closed meanwhile: nothing to point at
        return PointToOpen(effect, ask)


def still_open_key(ask_id: int) -> str:
    return f"{STILL_OPEN}:{ask_id}"
