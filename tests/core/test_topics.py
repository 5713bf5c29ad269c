"""`/quiz [N] TOPIC` and `/topics` in the core, over a real SQLite database."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from random import Random

import pytest

from bot.core.catalog import Catalog
from bot.core.model import ChatKind, ChatRef, LearnSource, Player
from bot.core.quiz import QuizService
from bot.core.rounds.service import Finish, NextQuestion, RoundService
from bot.core.rules.mastery import NoSuchTopic
from bot.core.services import build_services
from bot.core.topics import TopicService
from storage.sqlite import SqliteStore
from tests.builders import topic_deck
from tests.fakes.clock import FakeClock

DECK = topic_deck({"inference": 2, "interconnects": 3, "nccl": 4, "storage": 2})
ALICE = Player(1001, "Alice")
PRIVATE = ChatRef(ALICE.id, ChatKind.PRIVATE)
GROUP = ChatRef(-100777, ChatKind.SUPERGROUP, "Study group")


@dataclass
class Topical:
    store: SqliteStore
    clock: FakeClock
    quiz: QuizService
    rounds: RoundService
    topics: TopicService


@pytest.fixture
async def topical(tmp_path: Path) -> AsyncIterator[Topical]:
    store = await SqliteStore.open(tmp_path / "topics.sqlite3")
    clock = FakeClock()
    services = build_services(store, Catalog({DECK.id: DECK}), clock, rng=Random(4))
    try:
        yield Topical(store, clock, services.quiz, services.rounds, services.topics)
    finally:
        await store.close()


async def test_quiz_on_a_topic_asks_from_it(topical: Topical) -> None:
    """`/quiz nc` in private and in a group asks an nccl question."""
    for chat in (PRIVATE, GROUP):
        queued = await topical.quiz.quiz(chat, None, "NC")
        assert not isinstance(queued, NoSuchTopic)
        assert queued.ask.question_id.startswith("nccl-")


async def test_an_unknown_or_ambiguous_topic_writes_nothing(topical: Topical) -> None:
    """`/quiz in` (two topics) and `/quiz zzz` return the deck's candidates; no chat, ask or
    round is stored."""
    ambiguous = await topical.quiz.quiz(PRIVATE, None, "in")
    assert ambiguous == NoSuchTopic("in", DECK, ("inference", "interconnects"))
    unknown = await topical.rounds.start(GROUP, None, ALICE.id, 3, "zzz")
    assert unknown == NoSuchTopic("zzz", DECK, ())
    for chat in (PRIVATE, GROUP):
        assert await topical.store.chat(chat.id) is None
        assert await topical.store.running_round(chat.id) is None
        assert (await topical.store.pass_state(chat.id, DECK.id)).asked == frozenset()


async def test_a_topic_round_asks_only_the_topic_and_is_no_longer_than_it(
    topical: Topical,
) -> None:
    """`/quiz 10 storage` becomes a round of 2 (the topic's size); its next question is the
    other storage one, then it finishes."""
    started = await topical.rounds.start(PRIVATE, None, ALICE.id, 10, "storage")
    assert not isinstance(started, NoSuchTopic)
    round_id = started.ask.round_id
    assert round_id is not None
    current = await topical.store.get_round(round_id)
    assert current is not None
    assert (current.size, current.topic) == (2, "storage")
    step = await topical.rounds.plan(round_id)
    assert isinstance(step, NextQuestion)
    assert {step.draft.question_id, started.ask.question_id} == {"storage-0", "storage-1"}
    async with topical.store.transaction() as tx:
        await topical.rounds.apply(tx, step)
    assert isinstance(await topical.rounds.plan(round_id), Finish)


async def _log(topical: Topical, question_id: str, correct: bool, days_ago: float) -> None:
    at = topical.clock.now() - timedelta(days=days_ago)
    async with topical.store.transaction() as tx:
        await tx.log_learning(ALICE.id, DECK.id, question_id, correct, at, None, LearnSource.QUIZ)


async def test_mastery_counts_the_last_90_days_and_due_reviews(topical: Topical) -> None:
    """Presses older than 90 days do not count; a missed answer's card is due per topic."""
    await _log(topical, "nccl-0", True, days_ago=91)
    await _log(topical, "nccl-1", False, days_ago=87)
    await _log(topical, "storage-0", True, days_ago=1)
    queued = await topical.quiz.quiz(PRIVATE, None, "interconnects")
    assert not isinstance(queued, NoSuchTopic)
    wrong = (queued.ask.right_position + 1) % len(queued.ask.option_order)
    await topical.quiz.answer(
        chat_id=PRIVATE.id, message_id=None, ask_id=queued.ask.id, position=wrong, player=ALICE
    )
    topical.clock.advance(days=2)
    mastery = await topical.topics.mastery(PRIVATE.id, ALICE.id)
    by_topic = {t.topic: (t.correct, t.answered, t.due) for t in mastery.topics}
    assert by_topic["nccl"] == (0, 1, 0)
    assert by_topic["storage"] == (1, 1, 0)
    assert by_topic["interconnects"] == (0, 1, 1)
    assert by_topic["inference"] == (0, 0, 0)
    assert mastery.due == 1
    me = await topical.topics.private_me(PRIVATE.id, ALICE.id)
    assert (me.stats.answered, me.stats.correct) == (1, 0)
