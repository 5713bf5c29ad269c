"""`python -m bot copy-to-postgres FILE URL`: a SQLite database copied into an empty PostgreSQL
one and checked (the work is storage/copy/'s, reached through `bot.app.copy_to_postgres`).

Exit codes: 0 copied and verified; 2 refused, nothing changed (no such file, not a quizbot
database, a newer schema, not a PostgreSQL URL, a target that is not empty); 1 the copy failed
(left out entirely) or it was committed but does not match.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from urllib.parse import urlsplit

from bot.app import (
    CopyFailedError,
    CopyRefusedError,
    CopyReport,
    PostgresDriverMissingError,
    SchemaTooNewError,
    copy_to_postgres,
)


def redacted(url: str) -> str:
    """`url` without its password, for printing."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
        return parts._replace(netloc=netloc).geturl()
    except ValueError:
        return "the URL given"


def render_report(report: CopyReport, url: str) -> str:
    lines = [f"copying {report.source} to {redacted(url)}"]
    if report.migrated_from is not None:
        lines.append(
            f"migrated {report.source} from schema version {report.migrated_from} to "
            f"{report.schema_version} first"
        )
    if report.source_in_use:
        lines.append(
            "warning: a quizbot process is using the file; copied it as it was when the copy "
            "began (stop the bot before switching to PostgreSQL)"
        )
    width = max(len(table.name) for table in report.tables)
    lines.extend(f"  {table.name:<{width}} {table.rows:>12,}" for table in report.tables)
    lines.append(f"  not copied: {', '.join(report.not_copied)} (records and runtime state)")
    lines.append(
        f"copied {report.rows:,} rows in {len(report.tables)} tables in "
        f"{report.copy_seconds:.1f} s; checked in {report.verify_seconds:.1f} s"
    )
    if report.ok:
        lines.append(f"verified: counts and leaderboards match ({report.boards:,} leaderboards)")
    return "\n".join(lines) + "\n"


def copy_command(file: Path, url: str) -> int:
    """Copy, print the report; the exit status (see the module's docstring)."""
    try:
        report = asyncio.run(copy_to_postgres(file, url))
    except (CopyRefusedError, SchemaTooNewError, PostgresDriverMissingError) as error:
        print(f"quizbot: {error}", file=sys.stderr)
        return 2
    except CopyFailedError as error:
        print(f"quizbot: {error}", file=sys.stderr)
        return 1
    sys.stdout.write(render_report(report, url))
    if report.ok:
        return 0
    print("quizbot: verification FAILED: the copy differs from the file:", file=sys.stderr)
    for difference in report.differences:
        print(f"  {difference}", file=sys.stderr)
    print(
        "quizbot: the copy was committed; do not use it: drop that database, create an empty "
        "one and copy again",
        file=sys.stderr,
    )
    return 1
