"""Rounds against a real database of either engine: one running per chat, questions and scores."""

from __future__ import annotations

from datetime import timedelta

from bot.core.model import AskOrigin, ChatKind, ChatRef, Round, RoundEnd, RoundQuestion
from bot.core.rules.periods import period_keys
from storage.sql.store import SqlStore
from tests.storage.helpers import ALICE, BOB, CAROL, UTC_ZONE, draft, utc

NOW = utc(2026, 12, 2, 9, 30)
CHAT = ChatRef(-100123, ChatKind.SUPERGROUP, "Study group")
OTHER = ChatRef(-100456, ChatKind.SUPERGROUP)
PERIODS = period_keys(NOW, UTC_ZONE)


async def start(store: SqlStore, chat: ChatRef = CHAT) -> Round | None:
    async with store.transaction() as writes:
        await writes.upsert_chat(chat, NOW)
        return await writes.start_round(chat.id, 7, ALICE.id, 3, NOW)


async def test_one_running_round_per_chat(store: SqlStore) -> None:
    """A second round in a chat is refused (None) while the first runs; other chats are free."""
    first = await start(store)
    assert first == Round(first.id if first else 0, CHAT.id, 7, ALICE.id, 3, NOW, None)
    assert await start(store) is None
    assert await start(store, OTHER) is not None
    assert await store.running_round(CHAT.id) == first
    assert await store.get_round(first.id if first else 0) == first


async def test_a_refused_round_does_not_spoil_the_transaction(store: SqlStore) -> None:
    """The other writes of a transaction in which start_round returned None still commit."""
    await start(store)
    async with store.transaction() as writes:
        assert await writes.start_round(CHAT.id, None, BOB.id, 5, NOW) is None
        ask = await writes.create_ask(draft(CHAT.id, NOW))
    assert await store.get_ask(ask.id) == ask


async def test_ending_a_round_records_why_once(store: SqlStore) -> None:
    """end_round ends a running round with its reason; ending it again reports False."""
    started = await start(store)
    assert started is not None
    later = NOW + timedelta(minutes=3)
    async with store.transaction() as writes:
        assert await writes.end_round(started.id, RoundEnd.STOPPED, later)
        assert not await writes.end_round(started.id, RoundEnd.FINISHED, later)
    assert await store.running_round(CHAT.id) is None
    ended = await store.get_round(started.id)
    assert ended is not None
    assert (ended.ended_at, ended.end_reason, ended.is_running) == (later, RoundEnd.STOPPED, False)
    assert await start(store) is not None


async def test_round_questions_scores_and_last_answer(store: SqlStore) -> None:
    """Per-player questions in order, scores by correct answers then time, the last answer."""
    started = await start(store)
    assert started is not None
    asks = []
    async with store.transaction() as writes:
        for i in range(3):
            at = NOW + timedelta(minutes=i)
            question = draft(CHAT.id, at, f"q{i}", origin=AskOrigin.ROUND, round_id=started.id)
            asks.append(await writes.create_ask(question))
        assert await writes.round_asked(started.id) == 3
    assert await store.round_asked(started.id) == 3
    assert await store.round_last_answer_at(started.id) is None
    # Alice: right, wrong, right in 10 s each; Bob: right twice in 5 s; Carol: right twice, slow.
    plays = {ALICE: (True, False, True), BOB: (True, True, None), CAROL: (True, None, True)}
    delays = {ALICE: 10, BOB: 5, CAROL: 20}
    for player, results in plays.items():
        for ask, correct in zip(asks, results, strict=True):
            if correct is not None:
                at = ask.asked_at + timedelta(seconds=delays[player])
                await store.record_answer(ask, player, 0, correct, at, periods=PERIODS)
    questions = await store.round_questions(started.id, ALICE.id)
    assert questions == [
        RoundQuestion(f"q{i}", "deck", NOW + timedelta(minutes=i), correct)
        for i, correct in enumerate((True, False, True))
    ]
    assert [q.correct for q in await store.round_questions(started.id, BOB.id)] == [
        True,
        True,
        None,
    ]
    scores = await store.round_scores(started.id, 10)
    assert [(s.player, s.correct, s.answered, s.total_ms) for s in scores] == [
        (BOB, 2, 2, 10_000),
        (ALICE, 2, 3, 30_000),
        (CAROL, 2, 2, 40_000),
    ]
    assert {type(n) for s in scores for n in (s.correct, s.answered, s.total_ms)} == {int}
    assert [s.player for s in await store.round_scores(started.id, 1)] == [BOB]
    assert await store.round_last_answer_at(started.id) == NOW + timedelta(minutes=2, seconds=20)
