"""What quizbot remembers of each learner (re-exported by `bot.core.model`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

LEECH_LAPSES = 8  # a card missed this often needs studying differently, not more repetition


class LearnSource(StrEnum):
    QUIZ = "quiz"  # /quiz, rounds and daily questions, in any chat
    REVIEW = "review"
    EXAM = "exam"


@dataclass(frozen=True)
class Card:
    """One learner's memory of one question (FSRS state); it exists once they missed it."""

    user_id: int
    deck_id: str
    question_id: str
    due: datetime
    stability: float
    difficulty: float
    state: int  # fsrs.State
    last_review: datetime | None
    reviews: int
    lapses: int

    @property
    def is_leech(self) -> bool:
        return self.lapses >= LEECH_LAPSES


@dataclass(frozen=True)
class Learned:
    """One first press on a question, in any chat or mode."""

    question_id: str
    correct: bool
    at: datetime


@dataclass(frozen=True)
class MemoryFit:
    """A learner's last FSRS fit in one deck: the parameters they are scheduled with (None: the
    defaults, which predicted their held-out reviews as well or better) and how it was judged."""

    user_id: int
    deck_id: str
    parameters: tuple[float, ...] | None
    reviews: int  # their presses in the deck when it was fitted
    default_loss: float  # held-out log loss of the default parameters
    fitted_loss: float  # and of the fitted ones
    fitted_at: datetime

    @property
    def personal(self) -> bool:
        return self.parameters is not None


@dataclass(frozen=True)
class MemoryModel:
    """What `/me` says of a learner's memory model in a deck."""

    fit: MemoryFit | None  # their last fit; personal when it kept parameters
    reviews: int  # their presses in the deck now
    min_reviews: int  # presses before a first fit

    @property
    def personal(self) -> bool:
        return self.fit is not None and self.fit.personal
