"""Learner reports on questions: the use case (service), what it answers (outcomes) and what
a report owes the reports chat (owed). Every name is handed on here."""

from __future__ import annotations

from bot.core.reports.outcomes import AlreadyFiled as AlreadyFiled
from bot.core.reports.outcomes import AlreadyReported as AlreadyReported
from bot.core.reports.outcomes import AlreadyResolved as AlreadyResolved
from bot.core.reports.outcomes import Commented as Commented
from bot.core.reports.outcomes import CommentTooLate as CommentTooLate
from bot.core.reports.outcomes import Created as Created
from bot.core.reports.outcomes import DailyLimit as DailyLimit
from bot.core.reports.outcomes import Filed as Filed
from bot.core.reports.outcomes import NoSuchReport as NoSuchReport
from bot.core.reports.outcomes import NotAwaiting as NotAwaiting
from bot.core.reports.outcomes import NotReportable as NotReportable
from bot.core.reports.outcomes import QuestionGone as QuestionGone
from bot.core.reports.outcomes import Refusal as Refusal
from bot.core.reports.outcomes import Resolved as Resolved
from bot.core.reports.outcomes import Subject as Subject
from bot.core.reports.owed import ReportView as ReportView
from bot.core.reports.owed import view_of as view_of
from bot.core.reports.service import ReportService as ReportService
from bot.core.reports.service import list_reports as list_reports
