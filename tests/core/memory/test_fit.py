"""Fitting one learner's FSRS parameters: simulated learners with known parameters, the fit
judged on their latest reviews and kept only when it beats the defaults there."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.core.memory.fit import fit_learner, log_loss
from bot.core.memory.fit.simulate import DEFAULTS, scaled, simulated_presses
from bot.core.memory.fit.train import training_items
from bot.core.model import Learned

START = datetime(2026, 1, 5, tzinfo=UTC)
# First memories four times shorter than the defaults assume, and a steeper forgetting curve.
FORGETFUL = scaled(0.25, decay=0.5)


def test_a_fit_to_a_forgetful_learner_beats_the_defaults_on_held_out_reviews() -> None:
    """Simulated from known parameters far from the defaults: the fit is kept, and better."""
    outcome = fit_learner(simulated_presses(FORGETFUL, 1500, seed=0, start=START))
    assert outcome.parameters is not None
    assert len(outcome.parameters) == len(DEFAULTS)
    assert outcome.fitted_loss < outcome.default_loss - 0.01
    assert outcome.reviews == 1500
    assert outcome.held_out > 100


def test_a_learner_who_forgets_as_the_defaults_say_keeps_the_defaults() -> None:
    """Simulated from the defaults themselves: the fit predicts no better, so none is kept."""
    outcome = fit_learner(simulated_presses(DEFAULTS, 500, seed=1, start=START))
    assert outcome.parameters is None
    assert outcome.fitted_loss >= outcome.default_loss


def test_the_latest_fifth_of_the_presses_is_held_out() -> None:
    """About a fifth of the presses are scored (a question's first press predicts nothing)."""
    outcome = fit_learner(simulated_presses(DEFAULTS, 1000, seed=3, start=START))
    assert 100 < outcome.held_out <= 200


def test_each_review_after_a_questions_first_is_one_training_item() -> None:
    """Three presses of one question (a day apart, then two days) make two items."""
    presses = [
        Learned("q", False, START),
        Learned("q", True, START + timedelta(days=1)),
        Learned("q", True, START + timedelta(days=3)),
        Learned("r", True, START),
    ]
    items = training_items(presses)
    assert [len(item.reviews) for item in items] == [2, 3]
    assert repr(items[1]) == (
        "FSRSItem { reviews: [FSRSReview { rating: 1, delta_t: 0 }, "
        "FSRSReview { rating: 3, delta_t: 1 }, FSRSReview { rating: 3, delta_t: 2 }] }"
    )


def test_log_loss_is_the_mean_negative_log_likelihood() -> None:
    """A sure right answer costs almost nothing; 0.5 costs ln 2 either way."""
    assert log_loss([]) == 0.0
    assert log_loss([(0.5, True), (0.5, False)]) == pytest.approx(0.6931, abs=1e-4)
    assert log_loss([(1.0, True)]) < 0.002


def test_too_few_presses_or_a_bad_share_are_refused() -> None:
    """One press cannot be split; a held-out share must lie between 0 and 1."""
    with pytest.raises(ValueError, match="presses"):
        fit_learner([Learned("q", True, START)])
    with pytest.raises(ValueError, match="share"):
        fit_learner(simulated_presses(DEFAULTS, 20, seed=0, start=START), held_out=1.0)
