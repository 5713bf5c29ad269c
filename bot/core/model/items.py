"""An item's calibrated parameters: what the item response model says of one question."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class ItemParameters:
    """A question's item response parameters, fitted from learners' first answers.

    P(right | ability θ) = guessing + (1 − guessing) / (1 + exp(−discrimination · (θ − difficulty)))
    with θ on the scale of the deck's learners (mean 0, standard deviation 1). `guessing` is 0
    where the data did not support a guessing floor (a 2PL item). `prior_only`: too few answers
    to fit, the parameters are the priors' (the report says "prior").
    """

    deck_id: str
    question_id: str
    difficulty: float
    discrimination: float
    guessing: float
    # First answers the fit saw for this question.
    answers: int
    prior_only: bool
    fitted_at: datetime
