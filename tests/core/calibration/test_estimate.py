"""The item response estimator (bot/core/calibration/em.py) on simulated answers with known
parameters: recovery, priors for items with few answers, the guessing floor, determinism."""

from __future__ import annotations

import numpy as np
import pytest

from bot.core.calibration import FitSettings, Priors, Responses, chance_of_guessing, fit
from tests.core.calibration.simulated import simulate

FOUR = 0.25


def _fit(sim_responses: Responses, settings: FitSettings | None = None):
    return fit(sim_responses, np.full(sim_responses.n_items, FOUR), settings=settings)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_difficulties_are_recovered_from_200_learners_by_80_items(seed: int) -> None:
    """The issue's bar: correlation of true and fitted difficulties ≥ 0.9 (3PL answers)."""
    sim = simulate(200, 80, seed)
    found = _fit(sim.responses)
    assert found.converged
    assert not found.prior_only.any()
    assert np.corrcoef(sim.difficulty, found.difficulty)[0, 1] >= 0.9
    assert np.corrcoef(sim.abilities, found.abilities)[0, 1] >= 0.9


def test_discriminations_and_guessing_are_recovered_from_many_answers() -> None:
    """With 4,000 learners the discriminations follow too, and the floors sit near the true
    one."""
    sim = simulate(4000, 40, seed=7, guessing=0.25)
    found = _fit(sim.responses)
    assert np.corrcoef(sim.difficulty, found.difficulty)[0, 1] >= 0.97
    assert np.corrcoef(sim.discrimination, found.discrimination)[0, 1] >= 0.8
    assert (found.guessing > 0).all()
    assert abs(float(np.median(found.guessing)) - 0.25) < 0.05


def test_answers_without_guessing_get_no_floors() -> None:
    """2PL answers: the 3PL does not earn its parameters, no question gets a floor."""
    sim = simulate(3000, 30, seed=11, guessing=0.0)
    found = _fit(sim.responses)
    assert (found.guessing == 0).all()
    assert np.corrcoef(sim.difficulty, found.difficulty)[0, 1] >= 0.97


def test_items_with_few_answers_fall_back_on_the_priors() -> None:
    """Under `min_answers` an item keeps the priors' modes and is marked prior-only; never
    answered ones too; the rest are fitted."""
    sim = simulate(300, 10, seed=5)
    r = sim.responses
    rare = (r.items != 0) | (r.learners < 8)  # item 0: only 8 answers
    sparse = Responses(r.learners[rare], r.items[rare], r.correct[rare], 300, 11)
    found = fit(sparse, np.array([FOUR] * 10 + [0.5]), settings=FitSettings(min_answers=20))
    assert found.prior_only.tolist() == [True] + [False] * 9 + [True]
    assert found.answers[0] == 8
    assert found.answers[10] == 0
    priors = Priors()
    assert found.difficulty[0] == priors.b_mean
    assert found.discrimination[0] == pytest.approx(1.0)
    assert found.guessing[[0, 10]].tolist() == [FOUR, 0.5]


def test_a_deck_with_no_item_to_fit_is_all_priors() -> None:
    """No item with enough answers: no EM at all, every learner at ability 0."""
    few = Responses(np.arange(3), np.zeros(3, dtype=np.int64), np.ones(3, dtype=bool), 3, 2)
    found = _fit(few)
    assert found.prior_only.all()
    assert found.iterations == 0
    assert found.abilities.tolist() == [0.0, 0.0, 0.0]


def test_the_fit_is_deterministic() -> None:
    """Same answers, same parameters, bit for bit."""
    sim = simulate(150, 20, seed=3)
    first, second = _fit(sim.responses), _fit(sim.responses)
    assert np.array_equal(first.difficulty, second.difficulty)
    assert np.array_equal(first.guessing, second.guessing)


def test_a_second_answer_to_an_item_is_refused() -> None:
    """Only first answers: a repeated (learner, item) pair is a reader's bug."""
    twice = Responses(
        np.array([0, 0]), np.array([1, 1]), np.array([True, False]), n_learners=1, n_items=2
    )
    with pytest.raises(ValueError, match="first answers"):
        _fit(twice)


@pytest.mark.parametrize(
    ("options", "keyed", "chance"), [(4, 1, 0.25), (2, 1, 0.5), (5, 2, 0.1), (8, 3, 1 / 56)]
)
def test_the_chance_of_a_blind_guess_counts_the_right_sets(
    options: int, keyed: int, chance: float
) -> None:
    """One right set of `keyed` among the options: 1/C(options, keyed)."""
    assert chance_of_guessing(options, keyed) == pytest.approx(chance)


def test_a_question_without_a_wrong_option_has_no_guess() -> None:
    """Fewer than two options, or every option right, is not a question to guess."""
    with pytest.raises(ValueError, match="no guess"):
        chance_of_guessing(3, 3)
