"""The calibration use case on a real SQLite file: first answers read from the learning log,
the fit run off the event loop, the parameters stored per deck with the date of the fit."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest

from bot.core.calibration import Calibration, FitSettings, fit
from bot.core.model import LearnSource
from storage.sqlite import SqliteStore
from tests.builders import simple_deck
from tests.core.calibration.simulated import simulate
from tests.fakes.clock import FakeClock

LEARNERS, ANSWERED = 300, 12


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    opened = await SqliteStore.open(tmp_path / "quiz.sqlite3")
    try:
        yield opened
    finally:
        await opened.close()


async def _answered(store: SqliteStore, clock: FakeClock) -> None:
    """300 learners answer q0 … q11 (3PL); five answer `gone`, no longer in the deck file;
    each learner answers q0 a second time, always right (not a first answer)."""
    sim = simulate(LEARNERS, ANSWERED, seed=4)
    r, at = sim.responses, clock.now() - timedelta(days=1)
    async with store.transaction() as writes:
        for user, item, right in zip(r.learners, r.items, r.correct, strict=True):
            await writes.log_learning(
                int(user) + 1, "deck", f"q{item}", bool(right), at, None, LearnSource.QUIZ
            )
        for user in range(1, LEARNERS + 1):
            later = at + timedelta(hours=1)
            await writes.log_learning(user, "deck", "q0", True, later, None, LearnSource.EXAM)
        for user in range(1, 6):
            await writes.log_learning(user, "deck", "gone", True, at, None, LearnSource.QUIZ)


async def test_a_deck_is_fitted_stored_and_its_unanswered_questions_keep_the_priors(
    store: SqliteStore,
) -> None:
    """Answered questions are fitted; never-answered and gone ones with few answers say
    "prior"; the stored rows carry the clock's time; the fit ran through `run_blocking`."""
    clock = FakeClock()
    await _answered(store, clock)
    ran: list[str] = []

    async def run_blocking(work: Callable[[], object]) -> object:
        ran.append("fit")
        return work()

    calibration = Calibration(
        store=store,
        decks={"deck": simple_deck(14)},
        clock=clock,
        settings=FitSettings(min_answers=20),
        run_blocking=run_blocking,  # type: ignore[arg-type]
    )
    [deck] = await calibration.calibrate()
    assert ran == ["fit"]
    assert (deck.learners, deck.answers) == (LEARNERS, LEARNERS * ANSWERED + 5)
    assert (deck.fitted, deck.prior_only) == (ANSWERED, 3)
    stored = {item.question_id: item for item in await store.item_parameters("deck")}
    assert sorted(stored) == sorted([f"q{i}" for i in range(14)] + ["gone"])
    assert [q for q, item in stored.items() if item.prior_only] == ["gone", "q12", "q13"]
    assert stored["gone"].answers == 5
    assert stored["q12"].guessing == 0.25
    assert all(item.fitted_at == clock.now() for item in stored.values())
    assert await calibration.last_calibrated() == clock.now()


async def test_first_answers_only_reach_the_fit(store: SqliteStore) -> None:
    """Every learner's later right answer to q0 is left out: the stored difficulties are those
    of a fit of the simulated first answers alone."""
    clock = FakeClock()
    await _answered(store, clock)
    calibration = Calibration(store=store, decks={"deck": simple_deck(14)}, clock=clock)
    [deck] = await calibration.calibrate("deck")
    by_id = {item.question_id: item for item in deck.items}
    sim = simulate(LEARNERS, ANSWERED, seed=4)
    alone = fit(sim.responses, np.full(ANSWERED, 0.25))
    stored = [by_id[f"q{i}"].difficulty for i in range(ANSWERED)]
    assert by_id["q0"].answers == LEARNERS
    assert np.allclose(stored, alone.difficulty, atol=1e-9)


async def test_an_unknown_deck_is_not_calibrated(store: SqliteStore) -> None:
    """A deck with neither a file nor answers gives nothing and stores nothing."""
    calibration = Calibration(store=store, decks={"deck": simple_deck(3)}, clock=FakeClock())
    assert await calibration.calibrate("nothing") == []
    assert await store.item_parameters("nothing") == []
    assert await calibration.deck_ids() == ["deck"]
