"""Rounds: `/quiz N` and `/review` sessions, their scores and questions."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from bot.core.model.chats import Player


class RoundEnd(StrEnum):
    FINISHED = "finished"
    STOPPED = "stopped"


class RoundKind(StrEnum):
    QUIZ = "quiz"  # /quiz N
    REVIEW = "review"  # /review: the starter's due cards


@dataclass(frozen=True)
class Round:
    id: int
    chat_id: int
    thread_id: int | None
    started_by: int
    size: int
    started_at: datetime
    ended_at: datetime | None
    end_reason: RoundEnd | None = None
    kind: RoundKind = RoundKind.QUIZ
    topic: str | None = None  # `/quiz N TOPIC`: asks only from this topic of the deck

    @property
    def is_running(self) -> bool:
        return self.ended_at is None

    @property
    def is_review(self) -> bool:
        return self.kind is RoundKind.REVIEW


@dataclass(frozen=True)
class RoundScore:
    player: Player
    correct: int
    answered: int
    # Sum of (answered_at - asked_at): the faster player wins a tie on correct answers.
    total_ms: int


@dataclass(frozen=True)
class RoundQuestion:
    question_id: str
    deck_id: str
    asked_at: datetime
    correct: bool | None  # None: not answered
