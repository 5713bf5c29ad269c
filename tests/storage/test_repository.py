"""The repository against a real database file."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.core.domain import Ask, ChatKind, ChatRef, Player
from bot.core.periods import period_keys
from storage.db import Database
from storage.repository import Repository

NOW = datetime(2026, 12, 2, 9, 30, tzinfo=UTC)
CHAT = ChatRef(-100123, ChatKind.SUPERGROUP, "Study group")
ALICE = Player(1, "Alice", "Liddell", "alice")
PERIODS = period_keys(NOW, ZoneInfo("UTC"))


@pytest.fixture
async def repo(tmp_path: Path) -> AsyncIterator[Repository]:
    db = await Database.open(tmp_path / "quiz.sqlite3")
    try:
        yield Repository(db)
    finally:
        await db.close()


async def _ask(repo: Repository, question_id: str = "q1", pass_no: int = 1) -> Ask:
    await repo.upsert_chat(CHAT, NOW)
    return await repo.create_ask(
        chat_id=CHAT.id,
        thread_id=7,
        deck_id="deck",
        question_id=question_id,
        pass_no=pass_no,
        option_order=(2, 0, 3, 1),
        asked_at=NOW,
        closes_at=NOW + timedelta(minutes=5),
    )


async def test_ask_round_trips_with_option_order_and_times(repo: Repository) -> None:
    """A stored ask comes back as the same domain object, times in UTC."""
    ask = await _ask(repo)
    await repo.set_ask_message(ask.id, 42)
    stored = await repo.get_ask(ask.id)
    assert stored is not None
    assert stored.option_order == (2, 0, 3, 1)
    assert stored.right_position == 1
    assert (stored.message_id, stored.thread_id) == (42, 7)
    assert stored.asked_at == NOW
    assert stored.closes_at == NOW + timedelta(minutes=5)
    assert stored.closed_at is None


async def test_second_answer_by_same_user_keeps_the_first(repo: Repository) -> None:
    """One answer per user per ask: a second one is not stored and the first is returned."""
    ask = await _ask(repo)
    first = await repo.record_answer(ask, ALICE, 1, True, NOW, close=False, periods=PERIODS)
    second = await repo.record_answer(ask, ALICE, 3, False, NOW, close=False, periods=PERIODS)
    assert first.is_new
    assert not second.is_new
    assert second.answer.position == 1
    assert second.answer.correct
    row = await repo.db.fetch_one("SELECT count(*) FROM answers")
    assert row is not None
    assert row[0] == 1


async def test_concurrent_answers_by_same_user_store_one(repo: Repository) -> None:
    """Twenty simultaneous answers by one user leave exactly one row and one `is_new`."""
    ask = await _ask(repo)
    results = await asyncio.gather(
        *(
            repo.record_answer(ask, ALICE, i % 4, i % 4 == 1, NOW, close=False, periods=PERIODS)
            for i in range(20)
        )
    )
    assert sum(r.is_new for r in results) == 1
    assert len({r.answer.position for r in results}) == 1


async def test_single_answer_ask_closes_with_its_answer(repo: Repository) -> None:
    """With close=True the ask is closed in the same transaction as the answer."""
    ask = await _ask(repo)
    await repo.record_answer(ask, ALICE, 0, False, NOW, close=True, periods=PERIODS)
    stored = await repo.get_ask(ask.id)
    assert stored is not None
    assert stored.closed_at == NOW


async def test_user_stats_count_answers_in_that_chat_only(repo: Repository) -> None:
    """Stats are per chat: answers elsewhere do not count."""
    ask = await _ask(repo)
    other_chat = ChatRef(ALICE.id, ChatKind.PRIVATE)
    await repo.upsert_chat(other_chat, NOW)
    elsewhere = await repo.create_ask(
        chat_id=other_chat.id,
        thread_id=None,
        deck_id="deck",
        question_id="q1",
        pass_no=1,
        option_order=(0, 1),
        asked_at=NOW,
        closes_at=None,
    )
    await repo.record_answer(ask, ALICE, 1, True, NOW, close=False, periods=PERIODS)
    await repo.record_answer(elsewhere, ALICE, 1, False, NOW, close=True, periods=PERIODS)
    stats = await repo.user_stats(CHAT.id, ALICE.id)
    assert (stats.answered, stats.correct, stats.accuracy) == (1, 1, 1.0)


async def test_pass_state_reports_latest_pass_and_last_question(repo: Repository) -> None:
    """The pass state is the highest pass with the questions asked in it, newest last asked."""
    await _ask(repo, "q1", 1)
    await _ask(repo, "q2", 1)
    await _ask(repo, "q3", 2)
    state = await repo.pass_state(CHAT.id, "deck")
    assert (state.pass_no, state.asked, state.last_asked) == (2, frozenset({"q3"}), "q3")
    empty = await repo.pass_state(999, "deck")
    assert (empty.pass_no, empty.asked, empty.last_asked) == (1, frozenset(), None)


async def test_answer_for_unknown_ask_is_rejected_by_foreign_key(repo: Repository) -> None:
    """Foreign keys are enforced: an answer cannot point at an ask that does not exist."""
    ask = await _ask(repo)
    ghost = Ask(**{**ask.__dict__, "id": 9999})
    with pytest.raises(Exception, match="FOREIGN KEY"):
        await repo.record_answer(ghost, ALICE, 0, True, NOW, close=False, periods=PERIODS)
