"""Write a deck as an Anki package (`.apkg`), with genanki.

One note a question, one card a note: the front shows the topic, the question, its image and the
lettered options; the back adds the right option(s), the explanation, its image, the note and
the source. Ids are stable, so that importing a new export of the deck updates its notes instead
of adding copies: the Anki deck's id comes from the deck's id, each note's guid from the deck's and
the question's ids, and the note type's id from its name (one note type for every quizbot deck;
its name carries a version, to change with its fields or cards). Images go in as media files,
named after the deck so that two decks' `images/ring.png` stay apart.
"""

from __future__ import annotations

import hashlib
import html
import io
import itertools
import json
import sqlite3
import tempfile
import time
import zipfile
from pathlib import Path

import genanki

from content.formats.export.result import Exported, left_out, letter
from content.formats.practice_test import slugify
from content.models import Deck, Question

HOLDS = ("id", "topic", "explanation", "source", "note", "image", "explanation_image")
NOTE_TYPE = "quizbot multiple choice v1"
FIELDS = (
    "Question",
    "Options",
    "Answer",
    "Explanation",
    "Source",
    "Note",
    "Topic",
    "Image",
    "ExplanationImage",
    "Id",
)
FRONT = """<div class="topic">{{Topic}}</div>
<div class="question">{{Question}}</div>
{{#Image}}<div class="image">{{Image}}</div>{{/Image}}
<div class="options">{{Options}}</div>"""
BACK = """{{FrontSide}}
<hr id="answer">
<div class="answer">{{Answer}}</div>
<div class="explanation">{{Explanation}}</div>
{{#ExplanationImage}}<div class="image">{{ExplanationImage}}</div>{{/ExplanationImage}}
{{#Note}}<div class="note">{{Note}}</div>{{/Note}}
{{#Source}}<div class="source">Source: {{Source}}</div>{{/Source}}"""
CSS = """.card { font-family: sans-serif; font-size: 18px; text-align: left; }
.topic { color: #888; font-size: 14px; }
.question, .options, .answer, .explanation { margin: 0.6em 0; }
.answer { font-weight: bold; }
.note, .source { color: #555; font-size: 15px; margin: 0.6em 0; }
.image img { max-width: 100%; }"""


def stable_id(*parts: str) -> int:
    """An id in the range genanki asks for (2^30 to 2^31), the same for the same parts."""
    digest = hashlib.sha256("\0".join(("quizbot", *parts)).encode()).digest()
    return (1 << 30) + int.from_bytes(digest[:8], "big") % (1 << 30)


def html_text(text: str) -> str:
    """Plain deck text as card HTML: escaped, line breaks kept."""
    return html.escape(text).replace("\n", "<br>")


def media_name(deck: Deck, image: str) -> str:
    """The media file name of a deck's image: `images/ring.png` -> `DECK-images-ring.png`."""
    return f"{deck.id}-{image.replace('/', '-')}"


def shown_options(deck: Deck, question: Question) -> tuple[str, ...]:
    """The question's options in the order a card shows them, which does not give the answer
    away: the bot shuffles options for every ask, Anki never does, so a card shows a stable
    shuffle, the same in every export of the deck."""

    def rank(option: str) -> bytes:
        return hashlib.sha256(f"{deck.id}\0{question.id}\0{option}".encode()).digest()

    return tuple(sorted(question.options, key=rank))


def _image(deck: Deck, image: str | None) -> str:
    return f'<img src="{html.escape(media_name(deck, image))}">' if image else ""


def note_fields(deck: Deck, question: Question) -> list[str]:
    """The note's fields, in the order of FIELDS."""
    options = shown_options(deck, question)
    lettered = [f"{letter(i)}) {html_text(option)}" for i, option in enumerate(options)]
    right = [lettered[options.index(option)] for option in question.right_options]
    return [
        html_text(question.text),
        "<br>".join(lettered),
        "<br>".join(right),
        html_text(question.explanation),
        html_text(question.source or ""),
        html_text(question.note or ""),
        html_text(question.topic),
        _image(deck, question.image),
        _image(deck, question.explanation_image),
        html.escape(question.id),
    ]


def _note_type() -> genanki.Model:
    return genanki.Model(
        stable_id("note type", NOTE_TYPE),
        NOTE_TYPE,
        fields=[{"name": name} for name in FIELDS],
        templates=[{"name": "Question", "qfmt": FRONT, "afmt": BACK}],
        css=CSS,
    )


def _zipped(
    package: genanki.Package, media: dict[str, Path], folder: Path, timestamp: float
) -> bytes:
    """The package as .apkg bytes, in genanki's layout: its database (made in `folder`: genanki's
    own `write_to_file` leaves its temporary database behind) and each media file under its
    name."""
    database = folder / "collection.anki2"
    connection = sqlite3.connect(database)
    try:
        package.write_to_db(connection.cursor(), timestamp, itertools.count(int(timestamp * 1000)))
        connection.commit()
    finally:
        connection.close()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(database, "collection.anki2")
        archive.writestr("media", json.dumps({str(i): name for i, name in enumerate(media)}))
        for index, path in enumerate(media.values()):
            archive.write(path, str(index))
    return buffer.getvalue()


def write_anki(deck: Deck, folder: Path, timestamp: float | None = None) -> Exported:
    """The deck as an Anki package; its images are read from `folder`, the deck file's folder.

    `timestamp` (seconds since the epoch, default now) is the notes' modification time: Anki
    updates a note it has only from a package whose note is newer.
    """
    note_type = _note_type()
    anki_deck = genanki.Deck(stable_id("deck", deck.id), deck.title, description=deck.source)
    media: dict[str, Path] = {}
    for question in deck.questions:
        tags = [tag for tag in ("quizbot", slugify(question.topic)) if tag]
        guid = genanki.guid_for("quizbot", deck.id, question.id)
        fields = note_fields(deck, question)
        anki_deck.add_note(genanki.Note(model=note_type, fields=fields, tags=tags, guid=guid))
        for image in (question.image, question.explanation_image):
            if image:
                media[media_name(deck, image)] = folder / image
    with tempfile.TemporaryDirectory(prefix="quizbot-apkg-") as temporary:
        when = time.time() if timestamp is None else timestamp
        content = _zipped(genanki.Package(anki_deck), media, Path(temporary), when)
    return Exported(content, len(deck.questions), left_out=left_out(deck.questions, HOLDS))
