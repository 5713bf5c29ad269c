"""What the commands that read the stored answers share (`item-report`, `calibrate`): the
settings, a database that exists, and the deck files, with refusals as one `quizbot:` line."""

from __future__ import annotations

import sys
from dataclasses import dataclass

from pydantic import ValidationError

from bot.config import Settings, describe_settings_error
from content.loader import scan_decks
from content.models import Deck

REFUSED = 2


def fail(message: str) -> int:
    print(f"quizbot: {message}", file=sys.stderr)
    return REFUSED


@dataclass(frozen=True)
class StoredAnswers:
    settings: Settings
    decks: dict[str, Deck]


def stored_answers(left_out_of: str) -> StoredAnswers | int:
    """The settings and the valid decks by id (each broken deck file reported as left out of
    `left_out_of`), or the exit code of a refusal already printed."""
    try:
        settings = Settings()
    except ValidationError as error:
        return fail(f"invalid configuration:\n{describe_settings_error(error)}")
    if not settings.database_is_postgres() and not settings.sqlite_path().is_file():
        return fail(f"no database at {settings.database} (set QUIZBOT_DATABASE)")
    found, problems = scan_decks(settings.content_dir)
    for problem in problems:
        print(f"quizbot: deck file left out of {left_out_of}: {problem}", file=sys.stderr)
    return StoredAnswers(settings, {deck.id: deck for _, deck in found})
