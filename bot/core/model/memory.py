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
