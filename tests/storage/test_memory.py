"""Learner memory in the database: cards from group answers, the log, due reads, forgetting."""

from __future__ import annotations

from datetime import timedelta
from functools import partial

from bot.core.memory.scheduling import Memory
from bot.core.rules.periods import period_keys
from storage.sql.store import SqlStore
from tests.storage.helpers import ALICE, UTC_ZONE, Raw, group_ask, open_store
from tests.storage.helpers import ASKED_AT as NOW

MEMORY = Memory()


async def _group_answer(store: SqlStore, question_id: str, correct: bool) -> None:
    ask = await group_ask(store, question_id)
    review = partial(
        MEMORY.review,
        user_id=ALICE.id,
        deck_id=ask.deck_id,
        question_id=question_id,
        correct=correct,
        now=NOW,
    )
    position = ask.right_position if correct else (ask.right_position + 1) % 4
    periods = period_keys(NOW, UTC_ZONE)
    await store.record_answer(ask, ALICE, position, correct, NOW, periods=periods, review=review)


async def test_a_group_miss_makes_a_card_due_the_next_day_and_a_right_answer_none(
    store: SqlStore,
) -> None:
    """A miss creates a card (read back at once, before its write is flushed); a right one not."""
    await _group_answer(store, "missed", correct=False)
    await _group_answer(store, "known", correct=True)
    deck = (await group_ask(store, "other")).deck_id
    assert await store.due_cards(ALICE.id, deck, NOW, 5) == []
    [card] = await store.due_cards(ALICE.id, deck, NOW + timedelta(days=1), 5)
    assert card.question_id == "missed"
    assert card.lapses == 1


async def test_every_first_press_is_logged_with_its_time(store: SqlStore) -> None:
    """The answer's own statement writes the learning log, right or wrong."""
    await _group_answer(store, "missed", correct=False)
    await _group_answer(store, "known", correct=True)
    deck = (await group_ask(store, "other")).deck_id
    logged = await store.history(ALICE.id, deck, NOW - timedelta(days=1))
    assert sorted((item.question_id, item.correct) for item in logged) == [
        ("known", True),
        ("missed", False),
    ]


async def test_card_updates_waiting_to_be_written_survive_a_clean_close(
    store: SqlStore, raw: Raw, backend: str, database: str
) -> None:
    """Closing the store writes the cards still waiting for their batch."""
    await _group_answer(store, "missed", correct=False)
    await store.close()
    assert await raw.count("cards") == 1
    reopened = await open_store(backend, database)
    try:
        ask = await group_ask(reopened, "other")
        later = NOW + timedelta(days=1)
        assert len(await reopened.due_cards(ALICE.id, ask.deck_id, later, 5)) == 1
    finally:
        await reopened.close()


async def test_a_second_answer_builds_on_the_card_not_yet_written(store: SqlStore) -> None:
    """Two misses of one question inside one batch: the card counts both."""
    await _group_answer(store, "missed", correct=False)
    await _group_answer(store, "missed", correct=False)
    deck = (await group_ask(store, "other")).deck_id
    [card] = await store.due_cards(ALICE.id, deck, NOW + timedelta(days=1), 5)
    assert card.lapses == 2
