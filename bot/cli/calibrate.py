"""`python -m bot calibrate`: fit every deck's item parameters now and store them.

The same fit the leader runs on its schedule (QUIZBOT_CALIBRATE_EVERY_HOURS), on demand:
the database from `QUIZBOT_DATABASE` and the deck files from `QUIZBOT_CONTENT_DIR` (for the
questions never answered and each question's number of options). A deck file with a mistake
is reported and left out; its answers are still fitted, by question id.
"""

from __future__ import annotations

import asyncio
import sys

from pydantic import ValidationError

from bot.app import SchemaTooNewError, calibrate_database
from bot.config import Settings, describe_settings_error
from bot.render.items.calibration import render_calibration
from content.loader import scan_decks


def _fail(message: str) -> int:
    print(f"quizbot: {message}", file=sys.stderr)
    return 2


def calibrate(deck_id: str | None = None) -> int:
    """Fit, store and print per deck what was fitted; 0 on success, 2 on a refusal."""
    try:
        settings = Settings()
    except ValidationError as error:
        return _fail(f"invalid configuration:\n{describe_settings_error(error)}")
    if not settings.database_is_postgres() and not settings.sqlite_path().is_file():
        return _fail(f"no database at {settings.database} (set QUIZBOT_DATABASE)")
    found, problems = scan_decks(settings.content_dir)
    for problem in problems:
        print(f"quizbot: deck file left out of the calibration: {problem}", file=sys.stderr)
    decks = {deck.id: deck for _, deck in found}
    try:
        fitted = asyncio.run(calibrate_database(settings, decks, deck_id))
    except SchemaTooNewError as error:
        return _fail(str(error))
    if deck_id is not None and not fitted:
        return _fail(f"unknown deck {deck_id!r}: no deck file or logged answer has it")
    sys.stdout.write(render_calibration(fitted))
    return 0
