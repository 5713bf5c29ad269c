"""`export-deck`: a deck file written as CSV, GIFT, Aiken or an Anki package."""

from __future__ import annotations

import sys
from pathlib import Path

from bot.cli.output import write_file
from content.formats.export import FORMATS, UnknownFormatError, export_deck, format_of
from content.loader import DeckError, load_deck

FORMAT_NAMES = tuple(FORMATS)


def export(deck_file: Path, output: Path, format_name: str | None = None) -> int:
    """Write the deck in `deck_file` to `output` in the format named, else the one `output`'s
    name ends with; exit 1, writing nothing, on a deck with mistakes or nothing to write."""
    try:
        chosen = format_of(output, format_name)
    except UnknownFormatError as error:
        print(f"{output}: {error}", file=sys.stderr)
        return 1
    if output.resolve() == deck_file.resolve():
        print(f"{output}: is the deck file itself; nothing written", file=sys.stderr)
        return 1
    try:
        deck = load_deck(deck_file)
    except DeckError as error:
        for problem in error.problems:
            print(problem, file=sys.stderr)
        print(f"{len(error.problems)} problem(s) in {deck_file}; nothing written", file=sys.stderr)
        return 1
    exported = export_deck(deck, deck_file.parent, chosen)
    for question_id, why in exported.skipped:
        print(f"{deck_file.name}: {question_id}: left out: {why}", file=sys.stderr)
    if not exported.questions:
        print(f"no question of {deck_file} fits {chosen}; nothing written", file=sys.stderr)
        return 1
    try:
        write_file(output, exported.content)
    except OSError as error:
        print(f"{output}: cannot write: {error.strerror}", file=sys.stderr)
        return 1
    skipped = f", {len(exported.skipped)} left out" if exported.skipped else ""
    print(f"wrote {output}: {exported.questions} questions as {chosen}{skipped}")
    if exported.left_out:
        print(f"{chosen} has no place for: {', '.join(exported.left_out)}")
    return 0
