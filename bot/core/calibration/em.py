"""The item calibration's estimator: a 2PL/3PL item response model fitted by marginal maximum
likelihood with the EM algorithm over a fixed Gauss–Hermite quadrature of the abilities (Bock
and Aitkin 1981, "Marginal maximum likelihood estimation of item parameters: application of
an EM algorithm", Psychometrika 46), made Bayes modal by priors on the item parameters
(Mislevy 1986; bot/core/calibration/priors.py).

The abilities are integrated out under a standard normal: that fixes the scale (the learners
have mean 0 and standard deviation 1). Each cycle's E-step is two products of the sparse
learners × questions answers with the questions' log probabilities at the nodes, and two more
for the expected counts; the M-step (mstep.py) moves every question at once. A question with
fewer than `min_answers` first answers is left out and keeps the priors' parameters. The
deck is fitted twice, as 2PL and as 3PL (guessing floors with a beta prior at the chance of a
blind guess); the floors are kept where the data supports them: when the 3PL's marginal
likelihood earns its extra parameters by Akaike's criterion (priors.FitSettings).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy import sparse

from bot.core.calibration.mstep import (
    Bools,
    Floats,
    ItemTerms,
    Parameters,
    maximise,
    probability_right,
)
from bot.core.calibration.priors import FitSettings, Priors

Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Responses:
    """First answers as parallel arrays: learner index, question index, whether right. At
    most one answer per learner and question."""

    learners: Ints
    items: Ints
    correct: Bools
    n_learners: int
    n_items: int


@dataclass(frozen=True)
class Fit:
    """Per question (J): parameters, answers seen and whether they are the priors' only; per
    learner (N): the expected a posteriori ability."""

    difficulty: Floats
    discrimination: Floats
    guessing: Floats
    answers: Ints
    prior_only: Bools
    abilities: Floats
    iterations: int
    converged: bool


@dataclass(frozen=True)
class _Matrices:
    right: sparse.csr_matrix
    wrong: sparse.csr_matrix
    right_t: sparse.csr_matrix
    answered_t: sparse.csr_matrix


def _matrices(learners: Ints, items: Ints, correct: Bools, shape: tuple[int, int]) -> _Matrices:
    ones = np.ones(len(learners))
    right = sparse.csr_matrix((correct.astype(np.float64), (learners, items)), shape=shape)
    answered = sparse.csr_matrix((ones, (learners, items)), shape=shape)
    return _Matrices(
        right=right,
        wrong=(answered - right).tocsr(),
        right_t=right.T.tocsr(),
        answered_t=answered.T.tocsr(),
    )


def _posterior(m: _Matrices, params: Parameters, nodes: Floats, log_weights: Floats) -> Floats:
    """Each learner's posterior over the nodes (N × Q), given their answers."""
    p = probability_right(params, nodes)
    log_post = np.asarray(m.right @ np.log(p) + m.wrong @ np.log1p(-p)) + log_weights[None, :]
    log_post -= log_post.max(axis=1, keepdims=True)
    post = np.exp(log_post)
    post /= post.sum(axis=1, keepdims=True)
    return post


def _check(responses: Responses) -> None:
    keys = responses.learners * responses.n_items + responses.items
    if len(np.unique(keys)) != len(keys):
        raise ValueError("more than one answer of a learner to a question: only first answers")


class _Cycles:
    """The EM cycles on the fitted questions, to convergence."""

    def __init__(self, m: _Matrices, nodes: Floats, weights: Floats, settings: FitSettings):
        self.m, self.nodes, self.settings = m, nodes, settings
        self.log_weights = np.log(weights)
        self.iterations = 0

    def terms(self, params: Parameters, guessing: Bools, beta: tuple[Floats, Floats]) -> ItemTerms:
        post = _posterior(self.m, params, self.nodes, self.log_weights)
        return ItemTerms(
            nodes=self.nodes,
            expected=np.asarray(self.m.answered_t @ post),
            expected_right=np.asarray(self.m.right_t @ post),
            guessing=guessing,
            beta_alpha=beta[0],
            beta_beta=beta[1],
        )

    def log_likelihood(self, params: Parameters) -> float:
        """The marginal log likelihood of every answer under `params`."""
        p = probability_right(params, self.nodes)
        joint = np.asarray(self.m.right @ np.log(p) + self.m.wrong @ np.log1p(-p))
        joint += self.log_weights[None, :]
        top = joint.max(axis=1)
        return float((top + np.log(np.exp(joint - top[:, None]).sum(axis=1))).sum())

    def run(
        self, params: Parameters, guessing: Bools, beta: tuple[Floats, Floats], priors: Priors
    ) -> tuple[Parameters, bool]:
        for _ in range(self.settings.max_iterations):
            self.iterations += 1
            moved = maximise(params, self.terms(params, guessing, beta), priors)
            change = max(
                float(np.abs(moved.a - params.a).max(initial=0.0)),
                float(np.abs(moved.b - params.b).max(initial=0.0)),
                float(np.abs(moved.c - params.c).max(initial=0.0)),
            )
            params = moved
            if change < self.settings.tolerance:
                return params, True
        return params, False


def _start(share: Floats, guessing: Bools, chance: Floats, priors: Priors) -> Parameters:
    """Where the cycles start: discriminations at the prior's, difficulties from the share
    of right answers above the floor."""
    c = np.where(guessing, chance, 0.0)
    above = np.clip((share - c) / (1.0 - c), 0.02, 0.98)
    b = np.clip(-np.log(above / (1.0 - above)) * 1.3, -4.0, 4.0)
    return Parameters(a=np.full(len(share), priors.discrimination), b=b, c=c)


def _priors_only(responses: Responses, answers: Ints, chances: Floats, priors: Priors) -> Fit:
    """No question has answers enough: every one keeps the priors, every learner ability 0."""
    j = responses.n_items
    return Fit(
        difficulty=np.full(j, priors.b_mean),
        discrimination=np.full(j, priors.discrimination),
        guessing=np.asarray(chances, dtype=np.float64).copy(),
        answers=answers,
        prior_only=np.ones(j, dtype=np.bool_),
        abilities=np.zeros(responses.n_learners),
        iterations=0,
        converged=True,
    )


def fit(
    responses: Responses,
    chances: Floats,
    priors: Priors | None = None,
    settings: FitSettings | None = None,
) -> Fit:
    """Every question's parameters from the first answers; `chances[j]`: the probability of
    a blind guess at question j being right (the guessing prior's mode). Deterministic."""
    priors, settings = priors or Priors(), settings or FitSettings()
    _check(responses)
    j_all = responses.n_items
    answers = np.bincount(responses.items, minlength=j_all).astype(np.int64)
    fitted = answers >= settings.min_answers
    if not fitted.any():
        return _priors_only(responses, answers, chances, priors)
    index = np.full(j_all, -1, dtype=np.int64)
    index[fitted] = np.arange(int(fitted.sum()))
    keep = fitted[responses.items]
    shape = (responses.n_learners, int(fitted.sum()))
    items = index[responses.items[keep]]
    m = _matrices(responses.learners[keep], items, responses.correct[keep], shape)
    nodes, weights = np.polynomial.hermite_e.hermegauss(settings.quadrature_points)
    weights = weights / weights.sum()
    chance = chances[fitted]
    beta = (chance * priors.c_weight + 1.0, (1.0 - chance) * priors.c_weight + 1.0)
    share = (np.asarray(m.right.sum(axis=0)).ravel() + 0.5) / (answers[fitted] + 1.0)
    cycles = _Cycles(m, nodes, weights, settings)
    no_floor = np.zeros(shape[1], dtype=np.bool_)
    params, converged = cycles.run(_start(share, no_floor, chance, priors), no_floor, beta, priors)
    floors = np.ones(shape[1], dtype=np.bool_)
    with_floor, also = cycles.run(_start(share, floors, chance, priors), floors, beta, priors)
    gain = cycles.log_likelihood(with_floor) - cycles.log_likelihood(params)
    if 2.0 * gain > settings.guessing_penalty * shape[1]:
        params, converged = with_floor, also
    post = _posterior(m, params, nodes, np.log(weights))
    difficulty = np.full(j_all, priors.b_mean)
    discrimination = np.full(j_all, priors.discrimination)
    guess = np.asarray(chances, dtype=np.float64).copy()
    difficulty[fitted], discrimination[fitted], guess[fitted] = params.b, params.a, params.c
    return Fit(
        difficulty=difficulty,
        discrimination=discrimination,
        guessing=guess,
        answers=answers,
        prior_only=~fitted,
        abilities=np.asarray(post @ nodes, dtype=np.float64),
        iterations=cycles.iterations,
        converged=converged,
    )
