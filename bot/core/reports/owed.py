"""What a learner's report owes: its message in the reports chat, once the comment phase ends."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.catalog import Catalog
from bot.core.delivery import OwedKind
from bot.core.model import Effect, NewEffect, Report
from bot.core.ports import ReportStore
from content.models import Question

REPORT = "report"


@dataclass(frozen=True)
class ReportView:
    """A report with what its message shows; `question` is None once it left its deck."""

    report: Report
    question: Question | None
    deck_title: str


def view_of(report: Report, catalog: Catalog) -> ReportView:
    question = catalog.question(report.deck_id, report.question_id)
    return ReportView(report, question, catalog.title(report.deck_id))


@dataclass(frozen=True)
class ForwardReport:
    """A learner's report, for the reports chat."""

    effect: Effect
    view: ReportView


class ReportKind(OwedKind[ForwardReport]):
    name = REPORT

    def __init__(self, reports: ReportStore, catalog: Catalog) -> None:
        self._reports = reports
        self._catalog = catalog

    async def prepare(self, effect: Effect) -> ForwardReport | None:
        found = None
        if effect.report_id is not None:
            found = await self._reports.get_report(effect.report_id)
        return None if found is None else ForwardReport(effect, view_of(found, self._catalog))


def forward(reports_chat: int, report: Report) -> NewEffect:
    return NewEffect(reports_chat, REPORT, report_id=report.id)
