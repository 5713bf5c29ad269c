"""The item calibration in the database: first answers from the learning log in batches, and
each deck's item parameters stored, replaced and read back."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.core.model import ItemParameters, LearnSource
from storage.sql.store import SqlStore
from tests.storage.helpers import ASKED_AT as NOW


async def _log(store: SqlStore, user: int, question: str, correct: bool, minutes: int) -> None:
    async with store.transaction() as writes:
        at = NOW + timedelta(minutes=minutes)
        await writes.log_learning(user, "deck", question, correct, at, 900, LearnSource.QUIZ)


async def _all_results(store: SqlStore, deck_id: str, learners: int) -> list[list[tuple]]:
    return [
        [(r.user_id, r.question_id, r.correct) for r in batch]
        async for batch in store.first_results(deck_id, learners)
    ]


def _params(question_id: str, difficulty: float, prior: bool = False) -> ItemParameters:
    return ItemParameters("deck", question_id, difficulty, 1.5, 0.2, 40, prior, NOW)


async def test_only_each_learners_first_answer_to_a_question_is_read(store: SqlStore) -> None:
    """A later answer (right after a miss, or from an exam) does not replace the first."""
    await _log(store, 1, "q1", False, 0)
    await _log(store, 1, "q1", True, 5)
    await _log(store, 1, "q2", True, 1)
    async with store.transaction() as writes:
        later = NOW + timedelta(minutes=9)
        await writes.log_learning(2, "deck", "q1", True, later, None, LearnSource.EXAM)
    await _log(store, 2, "q1", False, 10)
    await _log(store, 3, "q9", True, 0)
    assert await _all_results(store, "deck", 1000) == [
        [(1, "q1", False), (1, "q2", True), (2, "q1", True), (3, "q9", True)]
    ]


async def test_first_answers_come_in_batches_of_whole_learners(store: SqlStore) -> None:
    """Batches split between learners, never inside one; other decks are not read."""
    for user in (5, 3, 8):
        await _log(store, user, "a", True, user)
        await _log(store, user, "b", False, user)
    async with store.transaction() as writes:
        await writes.log_learning(4, "other", "a", True, NOW, None, LearnSource.QUIZ)
    batches = await _all_results(store, "deck", 2)
    assert [sorted({user for user, _, _ in batch}) for batch in batches] == [[3, 5], [8]]
    assert sum(len(batch) for batch in batches) == 6
    assert await store.calibration_decks() == ["deck", "other"]
    assert await _all_results(store, "nothing", 2) == []


async def test_item_parameters_round_trip_and_a_new_fit_replaces_the_old(store: SqlStore) -> None:
    """Saved parameters read back exactly; the deck's next fit leaves none of the previous."""
    assert await store.item_parameters("deck") == []
    assert await store.last_calibrated() is None
    first = [_params("q2", -0.5), _params("q1", 1.25, prior=True)]
    await store.save_item_parameters("deck", first)
    assert await store.item_parameters("deck") == sorted(first, key=lambda p: p.question_id)
    later = NOW + timedelta(days=1)
    refit = ItemParameters("deck", "q3", 0.3, 0.8, 0.0, 120, False, later)
    await store.save_item_parameters("deck", [refit])
    assert await store.item_parameters("deck") == [refit]
    assert await store.last_calibrated() == later


async def test_parameters_of_another_deck_are_refused(store: SqlStore) -> None:
    """Saving deck A's fit under deck B is a bug, refused before anything is written."""
    with pytest.raises(ValueError, match="another deck"):
        await store.save_item_parameters("other", [_params("q1", 0.0)])
    assert await store.item_parameters("other") == []
