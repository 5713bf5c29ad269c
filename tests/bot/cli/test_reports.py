"""`python -m bot reports`' lines: the learner's choice and every right option."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from bot.cli.reports import report_lines
from bot.core.model import Report, ReportReason, ReportStatus

AT = datetime(2026, 12, 6, 9, tzinfo=UTC)
ONE = Report(
    id=7,
    user_id=42,
    ask_id=3,
    deck_id="deck",
    question_id="q1",
    question_hash="0123456789ab",
    option_order=(2, 0, 3, 1),
    chosen=0,
    reason=ReportReason.UNCLEAR,
    comment=None,
    status=ReportStatus.OPEN,
    created_at=AT,
    comment_until=None,
    prompt_message_id=None,
    resolved_at=None,
    resolved_by=None,
)


def test_a_one_answer_report_names_the_choice_and_the_right_letter() -> None:
    """Option 0 shown second: right B; the learner chose A."""
    assert "unclear; chose A (right: B); order shown 2,0,3,1" in report_lines(ONE)[1]


def test_a_choose_two_report_names_both_right_letters() -> None:
    """Options 0 and 1 are right (shown B and D); the learner submitted A and B."""
    two = replace(ONE, chosen=None, picked=frozenset({0, 1}))
    assert "chose A, B (right: B, D)" in report_lines(two)[1]
