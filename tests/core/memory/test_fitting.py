"""Personal memory fits on a real SQLite file: who is due a fit, what is stored, and the
scheduler taking the learner's own parameters once kept."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.core.memory.fit import FitOutcome
from bot.core.memory.fit.service import MemoryFitting
from bot.core.memory.fit.simulate import DEFAULTS, scaled, simulated_presses
from bot.core.memory.scheduling import Memory
from bot.core.model import Learned, LearnSource
from storage.sqlite import SqliteStore
from tests.fakes.clock import FakeClock

START = datetime(2026, 1, 5, tzinfo=UTC)
FORGETFUL = scaled(0.25, decay=0.5)  # forgets faster than the defaults say
ALICE, BOB = 7, 8


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    opened = await SqliteStore.open(tmp_path / "quiz.sqlite3")
    try:
        yield opened
    finally:
        await opened.close()


async def _log(store: SqliteStore, user: int, presses: Sequence[Learned]) -> None:
    async with store.transaction() as writes:
        for press in presses:
            await writes.log_learning(
                user, "deck", press.question_id, press.correct, press.at, None, LearnSource.QUIZ
            )


def _fitting(store: SqliteStore, memory: Memory, min_reviews: int = 400) -> MemoryFitting:
    return MemoryFitting(store=store, memory=memory, clock=FakeClock(), min_reviews=min_reviews)


async def test_a_learner_below_the_minimum_is_not_fitted(store: SqliteStore) -> None:
    """399 presses of 400: no fit, nothing stored, /me says how many they have."""
    await _log(store, ALICE, simulated_presses(FORGETFUL, 399, seed=0, start=START))
    fitting = _fitting(store, Memory(fits=store))
    assert await fitting.fit_due() == []
    assert await store.memory_fit(ALICE, "deck") is None
    model = await fitting.model_of(ALICE, "deck")
    assert (model.personal, model.reviews, model.min_reviews) == (False, 399, 400)


async def test_a_learner_with_enough_reviews_is_fitted_once_until_they_grow(
    store: SqliteStore,
) -> None:
    """The fit is stored with its date, count and both losses; the next check skips them until
    their presses grow by a quarter."""
    presses = simulated_presses(FORGETFUL, 1250, seed=0, start=START)
    await _log(store, ALICE, presses[:1000])
    fitting = _fitting(store, Memory(fits=store))
    [fit] = await fitting.fit_due()
    assert fit.personal
    assert fit.reviews == 1000
    assert fit.fitted_loss < fit.default_loss
    assert await store.memory_fit(ALICE, "deck") == fit
    assert await fitting.fit_due() == []
    await _log(store, ALICE, presses[1000:1249])
    assert await fitting.fit_due() == []
    await _log(store, ALICE, presses[1249:])
    [again] = await fitting.fit_due()
    assert again.reviews == 1250
    assert (await fitting.model_of(ALICE, "deck")).personal


async def test_when_the_defaults_win_no_parameters_are_kept(store: SqliteStore) -> None:
    """A learner who forgets as the defaults say: the attempt is recorded, without parameters,
    and they stay on the defaults."""
    await _log(store, BOB, simulated_presses(DEFAULTS, 500, seed=1, start=START))
    memory = Memory(fits=store)
    [fit] = await _fitting(store, memory).fit_due()
    assert fit.parameters is None
    assert fit.fitted_loss >= fit.default_loss
    stored = await store.memory_fit(BOB, "deck")
    assert stored is not None
    assert not stored.personal
    await memory.prepare(BOB, "deck")
    assert memory.scheduler_for(BOB, "deck").parameters == DEFAULTS


async def test_a_fitted_learner_is_scheduled_with_their_own_parameters(
    store: SqliteStore,
) -> None:
    """After a kept fit a forgetful learner's missed card is held less stable than the defaults
    would hold it; another learner keeps the defaults."""
    await _log(store, ALICE, simulated_presses(FORGETFUL, 1000, seed=0, start=START))
    memory = Memory(fits=store)
    now = START + timedelta(days=100)

    def stability_after_a_miss(user: int) -> float:
        card = memory.review(
            None, user_id=user, deck_id="deck", question_id="x", correct=False, now=now
        )
        assert card is not None
        again = memory.review(
            card, user_id=user, deck_id="deck", question_id="x", correct=True, now=card.due
        )
        assert again is not None
        return again.stability

    await memory.prepare(ALICE, "deck")
    default_stability = stability_after_a_miss(ALICE)
    [fit] = await _fitting(store, memory).fit_due()
    assert fit.personal
    await memory.prepare(ALICE, "deck")
    await memory.prepare(BOB, "deck")
    assert memory.scheduler_for(ALICE, "deck").parameters == fit.parameters
    assert stability_after_a_miss(ALICE) < default_stability
    assert stability_after_a_miss(BOB) == default_stability


async def test_the_cached_parameters_are_read_once_and_dropped_on_forgetting(
    store: SqliteStore,
) -> None:
    """One read per learner and deck while cached; `refitted` makes the next prepare read."""
    await _log(store, ALICE, simulated_presses(FORGETFUL, 1000, seed=0, start=START))
    memory = Memory(fits=store)
    await memory.prepare(ALICE, "deck")  # cached: no fit yet
    await store.save_memory_fit((await _fitting(store, Memory()).fit_due())[0])
    await memory.prepare(ALICE, "deck")
    assert memory.scheduler_for(ALICE, "deck").parameters == DEFAULTS
    memory.refitted(ALICE)
    await memory.prepare(ALICE, "deck")
    assert memory.scheduler_for(ALICE, "deck").parameters != DEFAULTS


def test_a_minimum_below_ten_reviews_is_refused(tmp_path: Path) -> None:
    """Ten presses are the least a fit is tried on."""
    with pytest.raises(ValueError, match="10"):
        MemoryFitting(store=None, memory=Memory(), clock=FakeClock(), min_reviews=9)  # type: ignore[arg-type]


async def test_the_learners_due_are_fitted_in_batches_of_one_runner_call(
    store: SqliteStore,
) -> None:
    """Three learners due: one call of the blocking runner fits all three, each stored."""
    for user in (1, 2, 3):
        await _log(store, user, simulated_presses(FORGETFUL, 60, seed=user, start=START))
    calls: list[int] = []

    async def counting(work: Callable[[], list[FitOutcome]]) -> list[FitOutcome]:
        outcomes = work()
        calls.append(len(outcomes))
        return outcomes

    fitting = MemoryFitting(
        store=store, memory=Memory(), clock=FakeClock(), min_reviews=50, run_blocking=counting
    )
    assert [fit.user_id for fit in await fitting.fit_due()] == [1, 2, 3]
    assert calls == [3]
    assert all([await store.memory_fit(user, "deck") for user in (1, 2, 3)])
