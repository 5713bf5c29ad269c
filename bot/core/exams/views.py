"""What the edge shows of an exam: a page of the open exam, the result and the misses."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.core.model.exams import Exam, ExamItem
from content.models import Question


@dataclass(frozen=True)
class ExamView:
    """The open exam at `page`: a question (0..size-1) or the overview page (`size`)."""

    exam: Exam
    items: tuple[ExamItem, ...]
    page: int
    now: datetime
    deck_title: str
    question: Question | None  # the page's question; None on the overview or if it was removed

    @property
    def item(self) -> ExamItem | None:
        return self.items[self.page] if self.page < len(self.items) else None

    @property
    def on_overview(self) -> bool:
        return self.page >= len(self.items)

    @property
    def time_left(self) -> timedelta:
        return self.exam.time_left(self.now)

    @property
    def answered(self) -> int:
        return sum(1 for item in self.items if item.answered)

    @property
    def unanswered(self) -> list[int]:
        return [item.index for item in self.items if not item.answered]

    @property
    def flagged(self) -> list[int]:
        return [item.index for item in self.items if item.flagged]


@dataclass(frozen=True)
class TopicScore:
    topic: str
    correct: int
    total: int


@dataclass(frozen=True)
class ExamResult:
    """A submitted exam, scored: unanswered questions count as wrong."""

    exam: Exam
    items: tuple[ExamItem, ...]
    deck_title: str

    @property
    def total(self) -> int:
        return len(self.items)

    @property
    def correct(self) -> int:
        return sum(1 for item in self.items if item.correct)

    @property
    def percent(self) -> int:
        """The score in whole percent, rounded down (so 69.9% never shows as a pass)."""
        return self.correct * 100 // self.total if self.total else 0

    @property
    def passed(self) -> bool:
        return self.correct * 100 >= self.exam.pass_percent * self.total

    @property
    def unanswered(self) -> int:
        return sum(1 for item in self.items if not item.answered)

    @property
    def time_used(self) -> timedelta:
        end = self.exam.submitted_at or self.exam.deadline
        return min(end, self.exam.deadline) - self.exam.started_at

    @property
    def misses(self) -> list[int]:
        """The exam indexes of the questions answered wrong or not at all."""
        return [item.index for item in self.items if not item.correct]

    @property
    def topics(self) -> list[TopicScore]:
        """Per topic, weakest share first (then by name)."""
        tally: dict[str, list[int]] = {}
        for item in self.items:
            counts = tally.setdefault(item.topic, [0, 0])
            counts[0] += item.correct
            counts[1] += 1
        scores = [TopicScore(topic, right, total) for topic, (right, total) in tally.items()]
        return sorted(scores, key=lambda s: (s.correct / s.total, s.topic))


@dataclass(frozen=True)
class MissView:
    """Miss number `number` (0-based) of a submitted exam, with its question."""

    result: ExamResult
    number: int
    item: ExamItem
    question: Question | None  # None when it was removed from the deck since
