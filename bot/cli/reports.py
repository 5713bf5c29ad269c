"""`python -m bot reports`: the learners' reports stored in the database, as plain text.

The database comes from `QUIZBOT_DATABASE` (through `Settings`); the deck files are not read,
so a broken deck never hides a report.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence

from pydantic import ValidationError

from bot.app import SchemaTooNewError, stored_reports
from bot.config import Settings, describe_settings_error
from bot.core.model import Report, ReportStatus, letter
from bot.render.text import shorten, visible

COMMENT_SHOWN = 300


def report_lines(report: Report) -> list[str]:
    """One report: what, where, which version, the learner's choice, reason and comment."""
    status = report.status.value
    if report.status is not ReportStatus.OPEN and report.resolved_at is not None:
        status += f" {report.resolved_at:%Y-%m-%d %H:%M} by {report.resolved_by}"
    # The right options are the indexes below N; a "choose N" answer submitted exactly N.
    right_count = len(report.picked) if report.picked else 1
    right = ", ".join(letter(p) for p, o in enumerate(report.option_order) if o < right_count)
    picked = ", ".join(letter(p) for p in sorted(report.chosen_positions))
    chosen = f"chose {picked}" if picked else "not answered"
    lines = [
        f"#{report.id}  {report.created_at:%Y-%m-%d %H:%M} UTC  {report.deck_id}/"
        f"{report.question_id}  version {report.question_hash}  [{status}]",
        f"    {report.reason.value}; {chosen} (right: {right}); "
        f"order shown {','.join(map(str, report.option_order))}; user {report.user_id}",
    ]
    if report.comment:
        lines.append(f"    comment: {shorten(visible(report.comment), COMMENT_SHOWN)}")
    return lines


def render_reports(reports: Sequence[Report], *, open_only: bool) -> str:
    kind = "open report" if open_only else "report"
    lines = [line for report in reports for line in report_lines(report)]
    lines.append(f"{len(reports)} {kind}{'' if len(reports) == 1 else 's'}")
    return "\n".join(lines) + "\n"


def reports(*, everything: bool = False, deck_id: str | None = None) -> int:
    """Print the open reports (or all), newest first; 0 on success."""
    try:
        settings = Settings()
    except ValidationError as error:
        print(f"quizbot: invalid configuration:\n{describe_settings_error(error)}", file=sys.stderr)
        return 2
    if not settings.database_is_postgres() and not settings.sqlite_path().is_file():
        where = settings.database
        print(f"quizbot: no database at {where} (set QUIZBOT_DATABASE)", file=sys.stderr)
        return 2
    try:
        found = asyncio.run(stored_reports(settings, open_only=not everything, deck_id=deck_id))
    except SchemaTooNewError as error:
        print(f"quizbot: {error}", file=sys.stderr)
        return 2
    sys.stdout.write(render_reports(found, open_only=not everything))
    return 0
