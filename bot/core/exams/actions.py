"""What a learner can do to an exam (the actions its buttons carry) and what comes of it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.core.exams.views import ExamResult, ExamView, MissView
from bot.core.model.exams import Exam


@dataclass(frozen=True)
class Choose:
    """Choose (or change to) option `position` of question `index`."""

    index: int
    position: int


@dataclass(frozen=True)
class Go:
    """Show page `page`: a question, or the overview after the last one."""

    page: int


@dataclass(frozen=True)
class Flag:
    """Flag question `index`, or unflag it."""

    index: int


@dataclass(frozen=True)
class Finish:
    """Submit, after a confirmation when questions are unanswered."""


@dataclass(frozen=True)
class FinishNow:
    """Submit at once (the confirmation, or `Finish now` on `/exam`)."""


@dataclass(frozen=True)
class Resume:
    """Show the open exam in a new message (the old one's buttons stop working)."""


@dataclass(frozen=True)
class ShowResult:
    pass


@dataclass(frozen=True)
class ShowMiss:
    number: int


ExamAction = Choose | Go | Flag | Finish | FinishNow | Resume | ShowResult | ShowMiss


class Refusal(StrEnum):
    UNKNOWN = "unknown"  # no such exam, question or option in this chat: forged or stale
    NOT_YOURS = "not_yours"  # someone else's exam
    MOVED = "moved"  # a message the exam has moved on from (after a resume)
    SUBMITTED = "submitted"  # the exam is over
    OPEN = "open"  # a result button of an exam that is not submitted


@dataclass(frozen=True)
class Refused:
    """Nothing was written."""

    reason: Refusal


@dataclass(frozen=True)
class Shown:
    view: ExamView


@dataclass(frozen=True)
class ConfirmFinish:
    view: ExamView


@dataclass(frozen=True)
class Submitted:
    """Submitted now (or just before, by the clock); the result message is owed."""

    exam: Exam
    timed_out: bool


@dataclass(frozen=True)
class Resumed:
    view: ExamView
    old_message_id: int | None


@dataclass(frozen=True)
class ResultShown:
    result: ExamResult


@dataclass(frozen=True)
class MissShown:
    view: MissView


@dataclass(frozen=True)
class Started:
    view: ExamView


@dataclass(frozen=True)
class InProgress:
    """The user has an open exam: resume it or finish it first."""

    view: ExamView


PressOutcome = Refused | Shown | ConfirmFinish | Submitted | Resumed | ResultShown | MissShown
