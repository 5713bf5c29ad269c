"""The storage ports for learner reports (re-exported by `bot.core.ports`).

Times are aware UTC datetimes. `ReportWrites` is part of `ports.Writes`: its methods commit
with the transaction they are called in.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from bot.core.model import NewReport, Report, ReportStatus


class ReportWrites(Protocol):
    async def count_reports_since(self, user_id: int, since: datetime) -> int:
        """How many reports the user has made since `since`, read inside the transaction."""
        ...

    async def create_report(self, report: NewReport) -> Report | None:
        """Store an open report, or None (nothing written) when the user has an open report
        on that question already."""
        ...

    async def end_comment_phases(self, user_id: int, now: datetime) -> None:
        """The user's report waiting for a comment, if any, waits no more: its message to the
        reports chat (if owed) is due at once."""
        ...

    async def file_report(self, report_id: int, comment: str | None, now: datetime) -> bool:
        """End the report's comment phase, with `comment` if given; its message to the reports
        chat (if owed) is due at once. False when the phase had ended already."""
        ...


class ReportStore(Protocol):
    async def get_report(self, report_id: int) -> Report | None: ...

    async def open_report(self, user_id: int, deck_id: str, question_id: str) -> Report | None:
        """The user's open report on the question, if any."""
        ...

    async def count_reports_since(self, user_id: int, since: datetime) -> int: ...

    async def awaiting_report(self, user_id: int) -> Report | None:
        """The user's report whose comment phase has not ended (it may have run out)."""
        ...

    async def resolve_report(
        self, report_id: int, status: ReportStatus, by: int, now: datetime
    ) -> bool:
        """Mark an open report fixed or dismissed by user `by`; False when it was not open."""
        ...

    async def reports(self, *, open_only: bool, deck_id: str | None, limit: int) -> list[Report]:
        """Reports, newest first: the open ones only, or all; of one deck or of every deck."""
        ...
