"""The priors of the item calibration and the settings of its fit.

The priors make the estimates Bayes modal (maximum a posteriori), as Mislevy (1986, "Bayes
modal estimation in item response models", Psychometrika 51) proposed against the unbounded
and degenerate estimates of marginal maximum likelihood on small samples: a wide normal prior
on the difficulty, a lognormal one on the discrimination and a beta prior on the guessing
floor with its mode at the chance of guessing right (the last two with BILOG-MG's defaults:
ln a ~ N(0, 0.5²), and a beta worth 20 answers).
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Priors:
    """Difficulty b ~ N(b_mean, b_sd²); log discrimination ln a ~ N(log_a_mean, log_a_sd²)
    (the mode taken in ln a); guessing c ~ Beta with its mode at the chance of a blind guess
    and `c_weight` answers' worth of evidence (BILOG-MG's 20)."""

    b_mean: float = 0.0
    b_sd: float = 2.0
    log_a_mean: float = 0.0
    log_a_sd: float = 0.5
    c_weight: float = 20.0

    def guessing_beta(self, chance: float) -> tuple[float, float]:
        """The beta prior's (α, β) for a question guessed right with probability `chance`:
        its mode is `chance`."""
        return chance * self.c_weight + 1.0, (1.0 - chance) * self.c_weight + 1.0

    @property
    def discrimination(self) -> float:
        """The discrimination a question with no evidence gets: the prior's mode in ln a."""
        return math.exp(self.log_a_mean)


@dataclass(frozen=True)
class FitSettings:
    """How the fit runs. Below `min_answers` first answers a question is not fitted: it keeps
    the priors' parameters (and says so). A deck's questions get guessing floors (3PL) only
    where the data supports them: when the 3PL's marginal log likelihood beats the 2PL's by
    more than `guessing_penalty` / 2 per question (2: Akaike's criterion, 1974). Decided per
    deck: one question's answers tell a floor from a lower discrimination too weakly (per
    question, the criterion dropped most true floors of easy questions in the recovery
    tests), a deck's answers tell it clearly."""

    min_answers: int = 20
    guessing_penalty: float = 2.0
    quadrature_points: int = 21
    max_iterations: int = 500
    # Converged once no parameter moves more than this in an EM cycle.
    tolerance: float = 1e-3


def chance_of_guessing(options: int, keyed: int = 1) -> float:
    """The probability of a blind guess being right: one right set of `keyed` options among
    the `options` (1/4 for four options, one right; 1/10 for "choose two" of five)."""
    if options < 2 or not 1 <= keyed < options:
        raise ValueError(f"no guess among {options} options with {keyed} right")
    return 1.0 / math.comb(options, keyed)
