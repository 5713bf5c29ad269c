"""The report statements of `Writes`, run on a connection whose write lock the caller holds."""

from __future__ import annotations

from datetime import datetime

from bot.core.model import NewReport, Report, ReportStatus, as_mask
from storage.sql.conn import Conn, first_value
from storage.sql.rows import encode_order, from_ms, ms_or_none, to_ms

COUNT_SINCE = "SELECT count(*) AS n FROM reports WHERE user_id = ? AND created_at >= ?"

_INSERT_REPORT = (
    "INSERT INTO reports (user_id, ask_id, deck_id, question_id, question_hash, option_order, "
    "chosen, reason, comment_until, prompt_message_id, created_at, picked) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (user_id, deck_id, question_id) WHERE status = 'open' DO NOTHING RETURNING id"
)
# The report's pending message to the reports chat goes at once (not before its deadline).
_DUE_NOW = (
    "UPDATE effects SET not_before = ?1 "
    "WHERE report_id = ?2 AND status = 'pending' AND not_before > ?1"
)
_AWAITING_OF_USER = "SELECT id FROM reports WHERE user_id = ? AND comment_until IS NOT NULL"
_END_PHASE = (
    "UPDATE reports SET comment = coalesce(?, comment), comment_until = NULL "
    "WHERE id = ? AND comment_until IS NOT NULL"
)


class ReportWrites:
    """Mixed into `SqlWrites`."""

    _conn: Conn

    async def count_reports_since(self, user_id: int, since: datetime) -> int:
        row = await self._conn.fetch_one(COUNT_SINCE, (user_id, to_ms(since)))
        return int(row["n"]) if row else 0

    async def create_report(self, report: NewReport) -> Report | None:
        created_at = to_ms(report.created_at)
        comment_until = ms_or_none(report.comment_until)
        report_id = await first_value(
            self._conn,
            _INSERT_REPORT,
            (
                report.user_id,
                report.ask_id,
                report.deck_id,
                report.question_id,
                report.question_hash,
                encode_order(report.option_order),
                report.chosen,
                report.reason.value,
                comment_until,
                report.prompt_message_id,
                created_at,
                None if report.picked is None else as_mask(report.picked),
            ),
        )
        if report_id is None:
            return None
        return Report(
            id=int(report_id),
            user_id=report.user_id,
            ask_id=report.ask_id,
            deck_id=report.deck_id,
            question_id=report.question_id,
            question_hash=report.question_hash,
            option_order=report.option_order,
            chosen=report.chosen,
            picked=report.picked,
            reason=report.reason,
            comment=None,
            status=ReportStatus.OPEN,
            created_at=from_ms(created_at),
            comment_until=None if comment_until is None else from_ms(comment_until),
            prompt_message_id=report.prompt_message_id,
            resolved_at=None,
            resolved_by=None,
        )

    async def end_comment_phases(self, user_id: int, now: datetime) -> None:
        found = await self._conn.fetch_all(_AWAITING_OF_USER, (user_id,))
        waiting = [int(row["id"]) for row in found]
        for report_id in waiting:
            await self.file_report(report_id, None, now)

    async def file_report(self, report_id: int, comment: str | None, now: datetime) -> bool:
        if await self._conn.execute(_END_PHASE, (comment, report_id)) != 1:
            return False
        await self._conn.execute(_DUE_NOW, (to_ms(now), report_id))
        return True
