"""What the report use case answers: the question a learner may report, and each outcome of
reporting, commenting and resolving."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.model import (
    Ask,
    Report,
)
from bot.core.reports.owed import ReportView
from content.models import Question


@dataclass(frozen=True)
class Subject:
    """A question a learner may report, as it was shown to them."""

    ask: Ask
    question: Question
    deck_title: str
    chosen: int | None  # the position they chose in that ask; None: not answered
    picked: frozenset[int] | None = None  # "choose N": every position they submitted


@dataclass(frozen=True)
class NotReportable:
    """Forged, stale or someone else's: no question this user may report (nothing written)."""

    reason: str


@dataclass(frozen=True)
class QuestionGone:
    """The question is no longer in its deck."""


@dataclass(frozen=True)
class AlreadyReported:
    """The learner has an open report on this question."""


@dataclass(frozen=True)
class DailyLimit:
    limit: int


@dataclass(frozen=True)
class Created:
    report: Report
    subject: Subject


@dataclass(frozen=True)
class Commented:
    report: Report


@dataclass(frozen=True)
class CommentTooLate:
    """The comment phase had run out: the report was filed without a comment."""


@dataclass(frozen=True)
class NotAwaiting:
    """No report of the learner waits for a comment: the text is not one."""


@dataclass(frozen=True)
class Filed:
    report: Report


@dataclass(frozen=True)
class AlreadyFiled:
    report: Report


@dataclass(frozen=True)
class Resolved:
    view: ReportView


@dataclass(frozen=True)
class AlreadyResolved:
    view: ReportView


@dataclass(frozen=True)
class NoSuchReport:
    pass


Refusal = NotReportable | QuestionGone | AlreadyReported | DailyLimit
