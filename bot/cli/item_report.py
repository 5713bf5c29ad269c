"""`python -m bot item-report`: the item analysis of the stored answers, printed and saved.

Wires the report the way `bot.app` wires the bot: the database from `QUIZBOT_DATABASE` (through
`Settings`), opened by `bot.app.analyse_database`, and the deck files from `QUIZBOT_CONTENT_DIR` for
question texts and never-answered questions. A deck file with a mistake is reported and left
out (its answers are still analysed, by question id); it does not stop the report.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bot.app import SchemaTooNewError, analyse_database
from bot.cli.stored import fail, stored_answers
from bot.render.items.html import render_html
from bot.render.items.text import render_csv, render_text


@dataclass(frozen=True)
class ReportOptions:
    """What `item-report` was asked for."""

    deck_id: str | None = None
    csv: Path | None = None
    html: Path | None = None


def item_report(options: ReportOptions) -> int:
    """Print the report's table; write the CSV and HTML files asked for. 0 on success."""
    stored = stored_answers("the report")
    if isinstance(stored, int):
        return stored
    try:
        figures = asyncio.run(analyse_database(stored.settings, stored.decks, options.deck_id))
    except SchemaTooNewError as error:
        return fail(str(error))
    if options.deck_id is not None and not figures:
        return fail(f"unknown deck {options.deck_id!r}: no deck file or stored answer has it")
    sys.stdout.write(render_text(figures))
    outputs: tuple[tuple[Path | None, Callable[[], str]], ...] = (
        (options.csv, lambda: render_csv(figures)),
        (options.html, lambda: render_html(figures, datetime.now(UTC))),
    )
    for path, render in outputs:
        if path is None:
            continue
        try:
            path.write_text(render(), encoding="utf-8")
        except OSError as error:
            print(f"quizbot: cannot write {path}: {error.strerror}", file=sys.stderr)
            return 1
        print(f"wrote {path}", file=sys.stderr)
    return 0
