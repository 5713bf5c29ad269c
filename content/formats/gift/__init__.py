"""GIFT, Moodle's plain-text question format: escapes (escapes.py), the file cut into question
blocks and categories (blocks.py), answer blocks (answers.py), and the reader into a draft deck
(reader.py). The writer is `content/formats/export/gift.py`."""

from pathlib import Path

from content.formats.drafts import DeckDraft, deck_fields, read_text
from content.formats.gift.reader import parse_gift


def read_gift(
    path: Path,
    *,
    deck_id: str | None = None,
    title: str | None = None,
    source: str | None = None,
) -> DeckDraft:
    """Import the GIFT file at `path`; the deck id and title default to the file's name."""
    deck = deck_fields(path, deck_id, title, source)
    return parse_gift(read_text(path), path.name, deck=deck)


__all__ = ["parse_gift", "read_gift"]
