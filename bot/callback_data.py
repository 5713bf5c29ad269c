"""The data carried by inline buttons: short, typed and validated (Telegram allows 1–64 bytes)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.core.model import ReportReason, ReportStatus

MAX_CALLBACK_BYTES = 64
_ANSWER = re.compile(r"a:([1-9][0-9]{0,17}):([0-7])")
_NEXT = re.compile(r"n:([1-9][0-9]{0,17}):([0-9]{1,2})")


@dataclass(frozen=True)
class AnswerButton:
    """A press on option `position` (0 = A) of the question stored as ask `ask_id`."""

    ask_id: int
    position: int

    def encode(self) -> str:
        data = f"a:{self.ask_id}:{self.position}"
        if len(data.encode()) > MAX_CALLBACK_BYTES:
            raise ValueError("callback data longer than Telegram allows")
        return data


def parse_answer_button(data: str | None) -> AnswerButton | None:
    """The button a press refers to, or None when the data is not one of ours."""
    if data is None:
        return None
    match = _ANSWER.fullmatch(data)
    if match is None:
        return None
    return AnswerButton(ask_id=int(match[1]), position=int(match[2]))


@dataclass(frozen=True)
class NextButton:
    """`Next ▶` in a private round that had asked `asked` questions when it was shown."""

    round_id: int
    asked: int

    def encode(self) -> str:
        return f"n:{self.round_id}:{self.asked}"


def parse_next_button(data: str | None) -> NextButton | None:
    match = _NEXT.fullmatch(data or "")
    if match is None:
        return None
    return NextButton(round_id=int(match[1]), asked=int(match[2]))


# Learner reports: `⚑ Report`, a reason, `Send without comment`, and `Fixed`/`Dismiss`.
REPORT_DATA = re.compile(r"r[a-z]?:")  # what the report handler takes (then validates)
_ID = r"([1-9][0-9]{0,17})"
_REPORT = re.compile(rf"r:{_ID}")
_REASON = re.compile(rf"rp:{_ID}:([a-z])")
_SKIP = re.compile(rf"rs:{_ID}")
_RESOLVE = re.compile(rf"r([fd]):{_ID}")
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
_RESOLUTIONS = {"f": ReportStatus.FIXED, "d": ReportStatus.DISMISSED}


@dataclass(frozen=True)
class ReportButton:
    """`⚑ Report` under the explanation of ask `ask_id`."""

    ask_id: int

    def encode(self) -> str:
        return f"r:{self.ask_id}"


@dataclass(frozen=True)
class ReasonButton:
    """A reason picked for reporting the question of ask `ask_id`."""

    ask_id: int
    reason: ReportReason

    def encode(self) -> str:
        return f"rp:{self.ask_id}:{REASON_CODES[self.reason]}"


@dataclass(frozen=True)
class SkipCommentButton:
    """`Send without comment` for report `report_id`."""

    report_id: int

    def encode(self) -> str:
        return f"rs:{self.report_id}"


@dataclass(frozen=True)
class ResolveButton:
    """`Fixed` or `Dismiss` on report `report_id` in the reports chat."""

    report_id: int
    status: ReportStatus

    def encode(self) -> str:
        code = next(code for code, status in _RESOLUTIONS.items() if status is self.status)
        return f"r{code}:{self.report_id}"


ReportData = ReportButton | ReasonButton | SkipCommentButton | ResolveButton


def parse_report_data(data: str | None) -> ReportData | None:
    """The report button a press refers to, or None when the data is not one of ours."""
    text = data or ""
    if match := _REPORT.fullmatch(text):
        return ReportButton(int(match[1]))
    if (match := _REASON.fullmatch(text)) and match[2] in _REASONS:
        return ReasonButton(int(match[1]), _REASONS[match[2]])
    if match := _SKIP.fullmatch(text):
        return SkipCommentButton(int(match[1]))
    if match := _RESOLVE.fullmatch(text):
        return ResolveButton(int(match[2]), _RESOLUTIONS[match[1]])
    return None
