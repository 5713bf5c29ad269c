"""Fitting one learner's FSRS parameters with fsrs-rs (Rust, no torch), and keeping them only
when they beat the defaults on the learner's held-out reviews.

The learner's presses are split in time: the earliest (1 - `held_out`) train the parameters,
the latest are held out. Both parameter sets then replay the whole history and are scored on
the held-out presses alone (each still seen after everything before it). A fit is kept only
when its held-out log loss is lower than the defaults'.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from fsrs_rs_python import DEFAULT_PARAMETERS, FSRS, FSRSItem, FSRSReview

from bot.core.memory.fit.loss import by_question, log_loss, predictions, scheduler_with
from bot.core.model.memory import Learned

log = logging.getLogger(__name__)

MIN_REVIEWS = 400  # QUIZBOT_PERSONAL_MEMORY_MIN_REVIEWS: presses in a deck before a fit
HELD_OUT = 0.2  # the latest fifth of a learner's presses judges the fit
AGAIN, GOOD = 1, 3  # FSRS ratings: a wrong first press is Again, a right one Good


@dataclass(frozen=True)
class FitOutcome:
    """One learner's fit: the parameters (None: the defaults stay, they predicted as well or
    better) and both held-out log losses."""

    parameters: tuple[float, ...] | None
    reviews: int  # presses the fit saw, train and held out
    held_out: int  # presses scored (a question's first press predicts nothing)
    default_loss: float
    fitted_loss: float


def training_items(presses: Iterable[Learned]) -> list[FSRSItem]:
    """fsrs-rs's items: for each press after a question's first, the history up to it, with
    whole days between presses (as the bot's scheduler counts them)."""
    items: list[FSRSItem] = []
    for history in by_question(presses).values():
        reviews: list[FSRSReview] = []
        previous: datetime | None = None
        for press in history:
            days = 0 if previous is None else (press.at - previous).days
            reviews.append(FSRSReview(GOOD if press.correct else AGAIN, days))
            previous = press.at
            if len(reviews) > 1:
                items.append(FSRSItem(list(reviews)))
    return items


def fitted_parameters(presses: Sequence[Learned]) -> tuple[float, ...] | None:
    """fsrs-rs's parameters for these presses; None when it cannot fit them."""
    items = [item for item in training_items(presses) if item.long_term_review_cnt() > 0]
    if not items:
        return None
    try:
        parameters = FSRS(list(DEFAULT_PARAMETERS)).compute_parameters(items)
    except Exception as error:  # fsrs-rs refuses some histories (too few, degenerate)
        log.info("no FSRS fit: %s", error)
        return None
    return tuple(float(value) for value in parameters)


def held_out_loss(
    parameters: Sequence[float] | None, presses: Sequence[Learned], since: datetime
) -> float:
    """The log loss of `parameters` (None: the defaults) on the presses from `since` on."""
    scored = predictions(scheduler_with(parameters), presses)
    return log_loss((p, correct) for at, p, correct in scored if at >= since)


def fit_learner(presses: Sequence[Learned], held_out: float = HELD_OUT) -> FitOutcome:
    """Fit on the earliest presses, judge on the latest; the parameters only if they win."""
    if not 0 < held_out < 1:
        raise ValueError("the held-out share is between 0 and 1")
    ordered = sorted(presses, key=lambda press: press.at)
    if len(ordered) < 2:
        raise ValueError("a fit needs presses to train on and to hold out")
    since = ordered[min(len(ordered) - 1, int(len(ordered) * (1 - held_out)))].at
    train = [press for press in ordered if press.at < since]
    scored = sum(1 for at, _, _ in predictions(scheduler_with(None), ordered) if at >= since)
    default_loss = held_out_loss(None, ordered, since)
    parameters = fitted_parameters(train)
    if parameters is None:
        return FitOutcome(None, len(ordered), scored, default_loss, default_loss)
    fitted_loss = held_out_loss(parameters, ordered, since)
    kept = parameters if fitted_loss < default_loss else None
    return FitOutcome(kept, len(ordered), scored, default_loss, fitted_loss)
