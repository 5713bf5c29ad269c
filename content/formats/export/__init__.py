"""Write a deck in another format: CSV (spreadsheet.py), GIFT (gift.py), Aiken (aiken.py) and an
Anki package (anki_package.py). What each gives back, and the shared option order, are in
result.py."""

from __future__ import annotations

from pathlib import Path

from content.formats.export.aiken import write_aiken
from content.formats.export.anki_package import write_anki
from content.formats.export.gift import write_gift
from content.formats.export.result import Exported
from content.formats.export.spreadsheet import write_csv
from content.models import Deck

# Each format and the file name ending that selects it.
FORMATS = {"csv": ".csv", "gift": ".gift", "aiken": ".aiken", "apkg": ".apkg"}


class UnknownFormatError(ValueError):
    """The format is not named and the output's file name does not tell it."""


def format_of(output: Path, named: str | None = None) -> str:
    """The format named, else the one the output's file name ends with."""
    if named is not None:
        return named
    by_suffix = {suffix: name for name, suffix in FORMATS.items()}
    found = by_suffix.get(output.suffix.lower())
    if found is None:
        choices = ", ".join(FORMATS)
        raise UnknownFormatError(
            f"cannot tell the format from the name {output.name!r}: end it with "
            f"{', '.join(FORMATS.values())}, or give --format ({choices})"
        )
    return found


def export_deck(deck: Deck, folder: Path, format_name: str) -> Exported:
    """The deck written in `format_name`; `folder` holds the deck file and its images."""
    if format_name == "apkg":
        return write_anki(deck, folder)
    writers = {"csv": write_csv, "gift": write_gift, "aiken": write_aiken}
    return writers[format_name](deck)


__all__ = ["FORMATS", "Exported", "UnknownFormatError", "export_deck", "format_of"]
