"""Each learner's fitted memory parameters in the database: stored, replaced and read back by
key, who is due a fit, and /forgetme taking them."""

from __future__ import annotations

from datetime import timedelta

from bot.core.model import LearnSource, MemoryFit
from bot.core.ports import FitCandidate
from storage.sql.fits import LEARNERS_A_BATCH
from storage.sql.store import SqlStore
from tests.storage.helpers import ASKED_AT as NOW

WEIGHTS = tuple(0.1 * (i + 1) for i in range(21))


def _fit(user: int, parameters: tuple[float, ...] | None, reviews: int = 500) -> MemoryFit:
    return MemoryFit(user, "deck", parameters, reviews, 0.41, 0.38, NOW)


async def _log(store: SqlStore, user: int, presses: int, deck: str = "deck") -> None:
    async with store.transaction() as writes:
        for n in range(presses):
            at = NOW + timedelta(minutes=n)
            await writes.log_learning(
                user, deck, f"q{n % 7}", n % 3 != 0, at, None, LearnSource.QUIZ
            )


async def test_a_fit_round_trips_and_a_refit_replaces_it(store: SqlStore) -> None:
    """The weights, count, losses and date come back as saved; a second save replaces."""
    assert await store.memory_fit(1, "deck") is None
    await store.save_memory_fit(_fit(1, WEIGHTS))
    assert await store.memory_fit(1, "deck") == _fit(1, WEIGHTS)
    await store.save_memory_fit(_fit(1, None, reviews=640))
    assert await store.memory_fit(1, "deck") == _fit(1, None, reviews=640)
    assert await store.memory_fit(1, "other") is None
    assert await store.last_memory_fit() == NOW


async def test_learners_are_due_a_fit_at_the_minimum_and_again_after_growing(
    store: SqlStore,
) -> None:
    """Never fitted with enough presses: due; fitted: due again once a quarter more came."""
    await _log(store, 1, 40)
    await _log(store, 2, 39)
    await _log(store, 3, 40, deck="other")
    assert await store.fit_candidates(40, 0.25) == [
        FitCandidate(1, "deck", 40),
        FitCandidate(3, "other", 40),
    ]
    await store.save_memory_fit(_fit(1, WEIGHTS, reviews=40))
    assert [c.user_id for c in await store.fit_candidates(40, 0.25)] == [3]
    async with store.transaction() as writes:
        for n in range(10):
            at = NOW + timedelta(days=1, minutes=n)
            await writes.log_learning(1, "deck", "q1", True, at, None, LearnSource.REVIEW)
    assert FitCandidate(1, "deck", 50) in await store.fit_candidates(40, 0.25)
    assert await store.review_count(1, "deck") == 50
    assert len(await store.presses(1, "deck")) == 50


async def test_forgetting_a_user_deletes_their_fitted_parameters(store: SqlStore) -> None:
    """/forgetme takes Alice's fits in every deck; Bob's stay."""
    await store.save_memory_fit(_fit(1, WEIGHTS))
    await store.save_memory_fit(MemoryFit(1, "other", None, 450, 0.3, 0.31, NOW))
    await store.save_memory_fit(_fit(2, WEIGHTS))
    await store.forget_user(1, {})
    assert await store.memory_fit(1, "deck") is None
    assert await store.memory_fit(1, "other") is None
    assert await store.memory_fit(2, "deck") == _fit(2, WEIGHTS)


async def test_learners_due_are_found_past_one_batch_of_learners(store: SqlStore) -> None:
    """More learners than one read's batch: every one is found, in user order."""
    async with store.transaction() as writes:
        for user in range(-5, LEARNERS_A_BATCH + 45):
            await writes.log_learning(user, "deck", "q", True, NOW, None, LearnSource.QUIZ)
    due = await store.fit_candidates(1, 0.25)
    assert [c.user_id for c in due] == list(range(-5, LEARNERS_A_BATCH + 45))
