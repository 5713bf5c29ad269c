"""Buttons of learner reports: `⚑ Report` (`r:<ask>`), a reason (`rp:<ask>:<code>`),
`Send without comment` (`rs:<report>`), and `Fixed`/`Dismiss` (`rf:`/`rd:<report>`)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.callback_data.fields import ID, number, numbers
from bot.callback_data.prefixes import Prefix, encoded, family, fields_of
from bot.core.model import ReportReason, ReportStatus

REPORT_DATA = family(Prefix.REPORT.value)
REASON_CODES: dict[ReportReason, str] = {
    ReportReason.WRONG_KEY: "k",
    ReportReason.SEVERAL_RIGHT: "m",
    ReportReason.UNCLEAR: "u",
    ReportReason.TYPO: "t",
    ReportReason.OUTDATED: "o",
    ReportReason.EXPLANATION: "e",
    ReportReason.OTHER: "x",
}
_REASONS = {code: reason for reason, code in REASON_CODES.items()}
_RESOLUTIONS = {
    Prefix.REPORT_FIXED: ReportStatus.FIXED,
    Prefix.REPORT_DISMISSED: ReportStatus.DISMISSED,
}


@dataclass(frozen=True)
class ReportButton:
    """`⚑ Report` under the explanation of ask `ask_id`."""

    ask_id: int

    def encode(self) -> str:
        return encoded(Prefix.REPORT, self.ask_id)


@dataclass(frozen=True)
class ReasonButton:
    """A reason picked for reporting the question of ask `ask_id`."""

    ask_id: int
    reason: ReportReason

    def encode(self) -> str:
        return encoded(Prefix.REPORT_REASON, self.ask_id, REASON_CODES[self.reason])


@dataclass(frozen=True)
class SkipCommentButton:
    """`Send without comment` for report `report_id`."""

    report_id: int

    def encode(self) -> str:
        return encoded(Prefix.REPORT_SKIP, self.report_id)


@dataclass(frozen=True)
class ResolveButton:
    """`Fixed` or `Dismiss` on report `report_id` in the reports chat."""

    report_id: int
    status: ReportStatus

    def encode(self) -> str:
        prefix = next(p for p, status in _RESOLUTIONS.items() if status is self.status)
        return encoded(prefix, self.report_id)


ReportData = ReportButton | ReasonButton | SkipCommentButton | ResolveButton


def parse_report_data(data: str | None) -> ReportData | None:
    """The report button a press refers to, or None when the data is not one of ours."""
    if (found := numbers((ID,), fields_of(Prefix.REPORT, data))) is not None:
        return ReportButton(found[0])
    fields = fields_of(Prefix.REPORT_REASON, data)
    if fields is not None and len(fields) == 2 and fields[1] in _REASONS:
        ask_id = number(ID, fields[0])
        return None if ask_id is None else ReasonButton(ask_id, _REASONS[fields[1]])
    if (found := numbers((ID,), fields_of(Prefix.REPORT_SKIP, data))) is not None:
        return SkipCommentButton(found[0])
    for prefix, status in _RESOLUTIONS.items():
        if (found := numbers((ID,), fields_of(prefix, data))) is not None:
            return ResolveButton(found[0], status)
    return None
