"""`python -m bot calibrate`: fit every deck's item parameters now and store them.

The same fit the leader runs on its schedule (QUIZBOT_CALIBRATE_EVERY_HOURS), on demand:
the database from `QUIZBOT_DATABASE` and the deck files from `QUIZBOT_CONTENT_DIR` (for the
questions never answered and each question's number of options). A deck file with a mistake
is reported and left out; its answers are still fitted, by question id.
"""

from __future__ import annotations

import asyncio
import sys

from bot.app import SchemaTooNewError, calibrate_database
from bot.cli.stored import fail, stored_answers
from bot.render.items.calibration import render_calibration


def calibrate(deck_id: str | None = None) -> int:
    """Fit, store and print per deck what was fitted; 0 on success, 2 on a refusal."""
    stored = stored_answers("the calibration")
    if isinstance(stored, int):
        return stored
    try:
        fitted = asyncio.run(calibrate_database(stored.settings, stored.decks, deck_id))
    except SchemaTooNewError as error:
        return fail(str(error))
    if deck_id is not None and not fitted:
        return fail(f"unknown deck {deck_id!r}: no deck file or logged answer has it")
    sys.stdout.write(render_calibration(fitted))
    return 0
