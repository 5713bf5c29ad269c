"""The M-step of the item calibration: every question's parameters at once, given the
expected counts of the E-step (bot/core/calibration/em.py).

With the learners' posterior over the quadrature nodes fixed, the expected complete-data log
likelihood of question j is Σ_q r_jq · ln P_j(θ_q) + (n_jq − r_jq) · ln(1 − P_j(θ_q)), where
n_jq is the expected number of its answerers at node q and r_jq of those answering right (Bock
and Aitkin 1981). The questions are independent given the counts: their log posteriors (that
likelihood plus the log priors, bot/core/calibration/priors.py) are summed and maximised
together by one bounded L-BFGS-B over (ln a, b, logit c), with the analytic gradient.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy.optimize import minimize

from bot.core.calibration.priors import Priors

Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]

# A probability is kept this far from 0 and 1 inside logarithms.
EPSILON = 1e-10
# The search stays where the model is sensible: 0.05 ≤ a ≤ 8, |b| ≤ 8, c ≤ 0.6.
BOUNDS_LOG_A = (float(np.log(0.05)), float(np.log(8.0)))
BOUNDS_B = (-8.0, 8.0)
BOUNDS_LOGIT_C = (-9.0, float(np.log(0.6 / 0.4)))
M_STEP_ITERATIONS = 100


@dataclass(frozen=True)
class ItemTerms:
    """What the M-step needs of each question: the quadrature nodes (Q), the expected counts
    (J × Q), whether it has a guessing floor (J) and that floor's beta prior (J each)."""

    nodes: Floats
    expected: Floats
    expected_right: Floats
    guessing: Bools
    beta_alpha: Floats
    beta_beta: Floats


@dataclass(frozen=True)
class Parameters:
    """Every question's discrimination, difficulty and guessing floor (0 without one)."""

    a: Floats
    b: Floats
    c: Floats


def sigmoid(x: Floats) -> Floats:
    return np.asarray(0.5 * (1.0 + np.tanh(0.5 * x)), dtype=np.float64)


def probability_right(params: Parameters, nodes: Floats) -> Floats:
    """P_j(θ_q) for every question j and node q (J × Q), kept inside (0, 1)."""
    s = sigmoid(params.a[:, None] * (nodes[None, :] - params.b[:, None]))
    p = params.c[:, None] + (1.0 - params.c[:, None]) * s
    return np.clip(p, EPSILON, 1.0 - EPSILON)


def expected_log_likelihood(params: Parameters, terms: ItemTerms) -> Floats:
    """Each question's expected complete-data log likelihood (J), without its priors."""
    p = probability_right(params, terms.nodes)
    wrong = terms.expected - terms.expected_right
    return np.asarray(
        (terms.expected_right * np.log(p) + wrong * np.log1p(-p)).sum(axis=1), dtype=np.float64
    )


def _unpack(x: Floats, guessing: Bools) -> tuple[Floats, Floats, Floats, Floats]:
    log_a, b, logit_c = np.split(x, 3)
    c = np.where(guessing, sigmoid(logit_c), 0.0)
    return log_a, b, logit_c, c


def _objective(x: Floats, terms: ItemTerms, priors: Priors) -> tuple[float, Floats]:
    """Minus the summed log posterior of every question, and its gradient."""
    log_a, b, _, c = _unpack(x, terms.guessing)
    a = np.exp(log_a)
    spread = terms.nodes[None, :] - b[:, None]
    s = sigmoid(a[:, None] * spread)
    p = np.clip(c[:, None] + (1.0 - c[:, None]) * s, EPSILON, 1.0 - EPSILON)
    n, r = terms.expected, terms.expected_right
    value = (r * np.log(p) + (n - r) * np.log1p(-p)).sum()
    slope = (r - n * p) / (p * (1.0 - p))  # d value / d p
    ds = (1.0 - c[:, None]) * s * (1.0 - s)
    grad_log_a = (slope * ds * spread).sum(axis=1) * a
    grad_b = -(slope * ds).sum(axis=1) * a
    grad_logit_c = (slope * (1.0 - s)).sum(axis=1) * c * (1.0 - c)
    # The priors: normal on b and on ln a, beta on c (its density in c, mode at the chance).
    value -= (((b - priors.b_mean) / priors.b_sd) ** 2).sum() / 2
    grad_b -= (b - priors.b_mean) / priors.b_sd**2
    value -= (((log_a - priors.log_a_mean) / priors.log_a_sd) ** 2).sum() / 2
    grad_log_a -= (log_a - priors.log_a_mean) / priors.log_a_sd**2
    alpha, beta, g = terms.beta_alpha - 1.0, terms.beta_beta - 1.0, terms.guessing
    safe_c = np.clip(c, EPSILON, 1.0 - EPSILON)
    value += np.where(g, alpha * np.log(safe_c) + beta * np.log1p(-safe_c), 0.0).sum()
    grad_logit_c += np.where(g, alpha * (1.0 - c) - beta * c, 0.0)
    gradient = np.concatenate([grad_log_a, grad_b, np.where(g, grad_logit_c, 0.0)])
    return -float(value), -gradient


def maximise(start: Parameters, terms: ItemTerms, priors: Priors) -> Parameters:
    """The parameters maximising every question's expected log posterior, from `start`."""
    guessing = terms.guessing
    start_c = np.where(guessing, np.clip(start.c, 1e-3, 0.59), 0.5)
    x0 = np.concatenate([np.log(start.a), start.b, np.log(start_c / (1.0 - start_c))])
    x0 = np.clip(
        x0,
        np.repeat([BOUNDS_LOG_A[0], BOUNDS_B[0], BOUNDS_LOGIT_C[0]], len(guessing)),
        np.repeat([BOUNDS_LOG_A[1], BOUNDS_B[1], BOUNDS_LOGIT_C[1]], len(guessing)),
    )
    fixed_c = [(float(v), float(v)) for v in x0[2 * len(guessing) :]]
    bounds = (
        [BOUNDS_LOG_A] * len(guessing)
        + [BOUNDS_B] * len(guessing)
        + [BOUNDS_LOGIT_C if g else fixed for g, fixed in zip(guessing, fixed_c, strict=True)]
    )
    found = minimize(
        _objective,
        x0,
        args=(terms, priors),
        jac=True,
        method="L-BFGS-B",
        bounds=bounds,
        options={"maxiter": M_STEP_ITERATIONS},
    )
    log_a, b, _, c = _unpack(np.asarray(found.x, dtype=np.float64), guessing)
    return Parameters(a=np.exp(log_a), b=b, c=c)
