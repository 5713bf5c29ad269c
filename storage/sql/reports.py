"""Learner reports: reads, and marking a report fixed or dismissed."""

from __future__ import annotations

from datetime import datetime

from bot.core.model import Report, ReportReason, ReportStatus, from_mask
from storage.sql.base import StoreBase
from storage.sql.conn import Row
from storage.sql.rows import from_ms, optional_ms, to_ms
from storage.sql.writes.reports import COUNT_SINCE

REPORT_COLUMNS = (
    "id, user_id, ask_id, deck_id, question_id, question_hash, option_order, chosen, reason, "
    "comment, status, created_at, comment_until, prompt_message_id, resolved_at, resolved_by, "
    "picked"
)
# Served by the partial UNIQUE index reports_one_open_per_user_question.
OPEN_REPORT = (
    f"SELECT {REPORT_COLUMNS} FROM reports "
    "WHERE user_id = ? AND deck_id = ? AND question_id = ? AND status = 'open'"
)
# Served by the partial UNIQUE index reports_one_awaiting_comment_per_user.
AWAITING = f"SELECT {REPORT_COLUMNS} FROM reports WHERE user_id = ? AND comment_until IS NOT NULL"
_RESOLVE = (
    "UPDATE reports SET status = ?, resolved_at = ?, resolved_by = ?, comment_until = NULL "
    "WHERE id = ? AND status = 'open'"
)


def report(row: Row) -> Report:
    return Report(
        id=row["id"],
        user_id=row["user_id"],
        ask_id=row["ask_id"],
        deck_id=row["deck_id"],
        question_id=row["question_id"],
        question_hash=row["question_hash"],
        option_order=tuple(int(part) for part in row["option_order"].split(",")),
        chosen=row["chosen"],
        reason=ReportReason(row["reason"]),
        comment=row["comment"],
        status=ReportStatus(row["status"]),
        created_at=from_ms(row["created_at"]),
        comment_until=optional_ms(row["comment_until"]),
        prompt_message_id=row["prompt_message_id"],
        resolved_at=optional_ms(row["resolved_at"]),
        resolved_by=row["resolved_by"],
        picked=None if row["picked"] is None else from_mask(int(row["picked"])),
    )


class ReportQueries(StoreBase):
    async def get_report(self, report_id: int) -> Report | None:
        row = await self._db.fetch_one(
            f"SELECT {REPORT_COLUMNS} FROM reports WHERE id = ?", (report_id,)
        )
        return None if row is None else report(row)

    async def open_report(self, user_id: int, deck_id: str, question_id: str) -> Report | None:
        row = await self._db.fetch_one(OPEN_REPORT, (user_id, deck_id, question_id))
        return None if row is None else report(row)

    async def count_reports_since(self, user_id: int, since: datetime) -> int:
        row = await self._db.fetch_one(COUNT_SINCE, (user_id, to_ms(since)))
        return int(row["n"]) if row else 0

    async def awaiting_report(self, user_id: int) -> Report | None:
        row = await self._db.fetch_one(AWAITING, (user_id,))
        return None if row is None else report(row)

    async def resolve_report(
        self, report_id: int, status: ReportStatus, by: int, now: datetime
    ) -> bool:
        if status is ReportStatus.OPEN:
            raise ValueError("a report is resolved as fixed or dismissed")
        changed = await self._db.execute(_RESOLVE, (status.value, to_ms(now), by, report_id))
        return changed == 1

    async def reports(self, *, open_only: bool, deck_id: str | None, limit: int) -> list[Report]:
        found = await self._db.fetch_all(
            f"SELECT {REPORT_COLUMNS} FROM reports "
            "WHERE (?1 = 0 OR status = 'open') AND deck_id = coalesce(?2, deck_id) "
            "ORDER BY id DESC LIMIT ?3",
            (int(open_only), deck_id, limit),
        )
        return [report(row) for row in found]
