"""Simulated first answers from known item parameters (a 3PL model), for the calibration's
recovery tests: deterministic for a seed."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bot.core.calibration import Responses


@dataclass(frozen=True)
class Simulated:
    responses: Responses
    abilities: np.ndarray
    difficulty: np.ndarray
    discrimination: np.ndarray
    guessing: np.ndarray


def simulate(
    learners: int, items: int, seed: int, guessing: float = 0.2, answered: float = 1.0
) -> Simulated:
    """Abilities N(0, 1), difficulties N(0, 1), discriminations lognormal(0, 0.3), one
    guessing floor for all; each learner answers each item with probability `answered`."""
    rng = np.random.default_rng(seed)
    theta = rng.normal(size=learners)
    a = np.exp(rng.normal(0.0, 0.3, items))
    b = rng.normal(0.0, 1.0, items)
    c = np.full(items, guessing)
    who, what = (grid.ravel() for grid in np.meshgrid(np.arange(learners), np.arange(items)))
    if answered < 1.0:
        keep = rng.random(who.size) < answered
        who, what = who[keep], what[keep]
    p = c[what] + (1 - c[what]) / (1 + np.exp(-a[what] * (theta[who] - b[what])))
    right = rng.random(who.size) < p
    responses = Responses(who.astype(np.int64), what.astype(np.int64), right, learners, items)
    return Simulated(responses, theta, b, a, c)
