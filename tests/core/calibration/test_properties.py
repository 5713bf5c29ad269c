"""Properties of the estimator on arbitrary first answers (hypothesis): whatever the answers,
the parameters are finite and in range, and only items under `min_answers` are prior-only."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.calibration import FitSettings, Responses, fit

MIN_ANSWERS = 5


@st.composite
def answer_sets(draw: st.DrawFn) -> tuple[Responses, np.ndarray]:
    learners = draw(st.integers(1, 25))
    items = draw(st.integers(1, 6))
    cells = draw(
        st.lists(
            st.tuples(st.integers(0, learners - 1), st.integers(0, items - 1), st.booleans()),
            max_size=learners * items,
            unique_by=lambda cell: (cell[0], cell[1]),
        )
    )
    chances = draw(st.lists(st.sampled_from([0.5, 0.25, 0.1]), min_size=items, max_size=items))
    who = np.array([c[0] for c in cells], dtype=np.int64)
    what = np.array([c[1] for c in cells], dtype=np.int64)
    right = np.array([c[2] for c in cells], dtype=np.bool_)
    return Responses(who, what, right, learners, items), np.array(chances)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(answer_sets())
def test_any_answers_give_finite_parameters_in_range(data: tuple[Responses, np.ndarray]) -> None:
    """All right, all wrong, one learner, no answers: never NaN, a > 0, 0 ≤ c < 1, abilities
    finite; prior-only exactly under MIN_ANSWERS answers."""
    responses, chances = data
    found = fit(responses, chances, settings=FitSettings(min_answers=MIN_ANSWERS))
    for values in (found.difficulty, found.discrimination, found.guessing, found.abilities):
        assert np.isfinite(values).all()
    assert (found.discrimination > 0).all()
    assert ((found.guessing >= 0) & (found.guessing < 1)).all()
    counts = np.bincount(responses.items, minlength=responses.n_items)
    assert found.prior_only.tolist() == (counts < MIN_ANSWERS).tolist()
    assert found.answers.tolist() == counts.tolist()
