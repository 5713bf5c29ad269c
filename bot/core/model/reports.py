"""Learner reports in the quiz core's model (re-exported by `bot.core.model`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum


class ReportReason(StrEnum):
    """Why a learner reports a question; the values are stored."""

    WRONG_KEY = "wrong_key"
    SEVERAL_RIGHT = "several_right"
    UNCLEAR = "unclear"
    TYPO = "typo"
    OUTDATED = "outdated"
    EXPLANATION = "explanation"
    OTHER = "other"


class ReportStatus(StrEnum):
    OPEN = "open"
    FIXED = "fixed"
    DISMISSED = "dismissed"


@dataclass(frozen=True)
class NewReport:
    """A report before it is stored: who, about which question as shown in which ask."""

    user_id: int
    ask_id: int
    deck_id: str
    question_id: str
    question_hash: str
    # option_order[position] is the option index shown at that position (0: the right one).
    option_order: tuple[int, ...]
    chosen: int | None  # the position the learner chose in that ask; None: not answered
    reason: ReportReason
    created_at: datetime
    # Until when the learner's next plain text in private is taken as the comment.
    comment_until: datetime
    prompt_message_id: int | None = None
    # A "choose N" answer: every position submitted (`chosen` is the first of them).
    picked: frozenset[int] | None = None


@dataclass(frozen=True)
class Report:
    """A stored report."""

    id: int
    user_id: int
    ask_id: int
    deck_id: str
    question_id: str
    question_hash: str
    option_order: tuple[int, ...]
    chosen: int | None
    reason: ReportReason
    comment: str | None
    status: ReportStatus
    created_at: datetime
    # Set while the comment phase lasts (it may have run out); None once it has ended.
    comment_until: datetime | None
    prompt_message_id: int | None
    resolved_at: datetime | None
    resolved_by: int | None
    picked: frozenset[int] | None = None  # "choose N": every position submitted

    @property
    def chosen_positions(self) -> frozenset[int]:
        """What the learner had answered: one position, or every one they submitted."""
        if self.picked is not None:
            return self.picked
        return frozenset() if self.chosen is None else frozenset({self.chosen})

    @property
    def is_open(self) -> bool:
        return self.status is ReportStatus.OPEN
