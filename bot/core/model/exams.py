"""The mock exam's model: an exam, its questions (with option orders, answers and flags)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum


class ExamEnd(StrEnum):
    """Who submitted an exam: the learner (`Finish`) or the clock (its deadline)."""

    USER = "user"
    DEADLINE = "deadline"


@dataclass(frozen=True)
class ExamItemDraft:
    """A question drawn for a new exam, with the option order it will be shown in."""

    question_id: str
    topic: str
    # option_order[position] is the option index shown there; option index 0 is the right one.
    option_order: tuple[int, ...]
    question_hash: str | None = None
    picks: int = 1  # N for a "choose N" question


@dataclass(frozen=True)
class ExamDraft:
    user_id: int
    chat_id: int
    deck_id: str
    pass_percent: int
    started_at: datetime
    deadline: datetime
    items: tuple[ExamItemDraft, ...]


@dataclass(frozen=True)
class Exam:
    id: int
    user_id: int
    chat_id: int
    deck_id: str
    size: int
    pass_percent: int
    started_at: datetime
    deadline: datetime
    # The message that shows the exam now (None until posted; a resume posts a new one).
    message_id: int | None
    # The page shown: a question's index, or `size` for the overview page.
    current: int
    submitted_at: datetime | None = None
    submitted_by: ExamEnd | None = None

    @property
    def is_open(self) -> bool:
        return self.submitted_at is None

    def time_left(self, now: datetime) -> timedelta:
        return max(self.deadline - now, timedelta(0))


@dataclass(frozen=True)
class ExamItem:
    """One question of an exam and what the learner did with it."""

    exam_id: int
    index: int
    question_id: str
    topic: str
    option_order: tuple[int, ...]
    question_hash: str | None
    chosen: int | None  # the position chosen (None: unanswered; "choose N": the first picked)
    answered_at: datetime | None
    flagged: bool
    picks: int = 1  # N for a "choose N" question
    picked: frozenset[int] = frozenset()  # "choose N": the positions picked so far

    @property
    def answered(self) -> bool:
        return self.chosen is not None

    @property
    def chosen_positions(self) -> frozenset[int]:
        """What the learner chose: the one position, or every one picked."""
        if self.picks > 1:
            return self.picked
        return frozenset() if self.chosen is None else frozenset({self.chosen})

    @property
    def correct(self) -> bool:
        return self.answered and self.chosen_positions == self.right_positions

    @property
    def right_position(self) -> int:
        return self.option_order.index(0)

    @property
    def right_positions(self) -> frozenset[int]:
        return frozenset(p for p, option in enumerate(self.option_order) if option < self.picks)
