"""The item review on a real database of simulated learners (tests/core/items/simulated.py)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.items.analysis import DeckFigures, Flag, ItemFigures
from bot.core.items.review import ItemReview
from storage.sqlite import SqliteStore
from tests.core.items.simulated import CHATS, DECK_ID, LEARNERS, sim_deck, simulate


async def _simulated(path: Path) -> None:
    store = await SqliteStore.open(path)
    try:
        await simulate(store)
    finally:
        await store.close()


@pytest.fixture(scope="module")
def sim_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The simulated history, written once for this module's tests (which only read it)."""
    path = tmp_path_factory.mktemp("items") / "sim.sqlite3"
    asyncio.run(_simulated(path))
    return path


@pytest.fixture
async def sim_store(sim_db: Path) -> AsyncIterator[SqliteStore]:
    store = await SqliteStore.open(sim_db)
    try:
        yield store
    finally:
        await store.close()


@pytest.fixture
async def figures(sim_store: SqliteStore) -> DeckFigures:
    review = ItemReview(store=sim_store, calibrations=sim_store, decks={DECK_ID: sim_deck()})
    return await review.deck(DECK_ID)


def by_id(figures: DeckFigures) -> dict[str, ItemFigures]:
    return {item.item.question_id: item for item in figures.items}


async def test_miskeyed_item_is_flagged_check_the_key(figures: DeckFigures) -> None:
    """The keyed option picked mostly by weak learners: negative discrimination by both
    indices, a wrong option picked more than the key, and the 'check the key' flag."""
    item = by_id(figures)["miskeyed"]
    assert (item.point_biserial or 0) < 0
    assert (item.upper_lower or 0) < 0
    assert item.picks[1] > item.picks[0]
    assert Flag.CHECK_KEY in item.flags


async def test_well_behaved_items_are_not_flagged(figures: DeckFigures) -> None:
    """Items whose right answer rises with ability discriminate well and raise no flag."""
    for qid in ("good-1", "good-2", "good-3", "good-4"):
        item = by_id(figures)[qid]
        assert item.flags == (), qid
        assert (item.point_biserial or 0) > 0.2, qid
        assert (item.upper_lower or 0) > 0.2, qid


async def test_too_easy_item_is_flagged(figures: DeckFigures) -> None:
    """Nearly everyone right: more than 90% right is 'too easy'."""
    item = by_id(figures)["easy"]
    assert (item.share_right or 0) > 0.9
    assert Flag.TOO_EASY in item.flags


async def test_never_picked_option_is_a_dead_distractor(figures: DeckFigures) -> None:
    """Wrong option 3 (D) is never picked through four different option orders: it alone is
    dead, and the item is otherwise fine."""
    item = by_id(figures)["dead"]
    assert item.picks[3] == 0
    assert item.dead_options == (3,)
    assert item.flags == (Flag.DEAD_DISTRACTORS,)


async def test_second_answers_do_not_count(figures: DeckFigures) -> None:
    """A chat's learners answering `easy` again (wrongly) change nothing: one first answer
    per learner and question, and the deck has 200 learners over seven asked items."""
    assert by_id(figures)["easy"].answers == LEARNERS
    assert figures.learners == LEARNERS
    assert figures.answers == LEARNERS * 7
    assert LEARNERS % CHATS == 0


async def test_unasked_item_is_listed_with_zero_answers_and_flagged_ones_come_first(
    figures: DeckFigures,
) -> None:
    """The never-asked item is in the figures with 0 answers; the review order puts the
    flagged items first, each group in deck order."""
    assert by_id(figures)["unasked"].answers == 0
    order = [item.item.question_id for item in figures.review_order()]
    assert order == [
        "miskeyed", "easy", "dead", "good-1", "good-2", "good-3", "good-4", "unasked",
    ]  # fmt: skip


async def test_decks_lists_files_and_answered_decks_or_the_one_asked_for(
    sim_store: SqliteStore,
) -> None:
    """Without a deck id every deck with a file or answers is analysed; an unknown id gives
    nothing; a deck with answers but no file is analysed by question id."""
    other = sim_deck().model_copy(update={"id": "other"})
    review = ItemReview(store=sim_store, calibrations=sim_store, decks={"other": other})
    assert await review.deck_ids() == ["other", DECK_ID]
    assert await review.decks("nope") == []
    [alone] = await review.decks(DECK_ID)
    assert alone.title == DECK_ID
    assert all(not item.in_deck for item in alone.items)
    assert len(alone.items) == 7
