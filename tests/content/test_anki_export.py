"""The Anki package export-deck writes, opened with Anki itself in a throwaway collection: every
question a card with its fields, the lettered options on the front, the answer, explanation and
source on the back, images as media, and ids that stay the same from one export to the next."""

import html
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest

from content.formats.export.anki_package import (
    FIELDS,
    NOTE_TYPE,
    html_text,
    media_name,
    write_anki,
)
from content.loader import PNG_SIGNATURE, load_deck
from content.models import Deck
from tests.content.builders import deck, mixed_questions, question, write

IMAGE = PNG_SIGNATURE + b"a small diagram"


@pytest.fixture
def collection(tmp_path: Path) -> Iterator[Collection]:
    """An empty Anki collection in a temp folder, closed after the test."""
    (tmp_path / "anki").mkdir()
    opened = Collection(str(tmp_path / "anki" / "collection.anki2"))
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
def deck_file(tmp_path: Path) -> Path:
    """A deck file of the builders' mixed questions plus one with both images beside it."""
    (tmp_path / "images").mkdir()
    (tmp_path / "images" / "ring.png").write_bytes(IMAGE)
    pictured = question(
        "ring",
        text="Which topology does this show?",
        answer="A ring",
        wrong=["A tree", "A mesh"],
        explanation="Each GPU sends to the next.",
        image="images/ring.png",
        explanation_image="images/ring.png",
    )
    return write(tmp_path / "sample.yaml", deck(*mixed_questions(), pictured))


def import_package(collection: Collection, path: Path, content: bytes) -> None:
    """Import the package `content`, written to `path`, into `collection` (notes already there
    are updated from newer ones, Anki's default)."""
    path.write_bytes(content)
    options = ImportAnkiPackageOptions(with_scheduling=False, with_deck_configs=False)
    request = ImportAnkiPackageRequest(package_path=str(path), options=options)
    collection.import_anki_package(request)


def notes_by_id(collection: Collection) -> dict[str, dict[str, str]]:
    """Each imported note's fields, keyed by the question id in its `Id` field."""
    notes = [collection.get_note(note_id) for note_id in collection.find_notes("")]
    return {note["Id"]: dict(note.items()) for note in notes}


def exported(deck_file: Path, timestamp: float | None = None) -> tuple[Deck, bytes]:
    """The deck in `deck_file`, and its Anki package (its notes modified at `timestamp`)."""
    loaded = load_deck(deck_file)
    return loaded, write_anki(loaded, deck_file.parent, timestamp).content


def test_every_question_is_a_card_with_its_fields(
    collection: Collection, deck_file: Path, tmp_path: Path
) -> None:
    """One card a question, in a deck named by the title, each field holding the question's text."""
    loaded, content = exported(deck_file)

    import_package(collection, tmp_path / "sample.apkg", content)

    assert collection.card_count() == len(loaded.questions)
    assert "Sample" in collection.decks.all_names()
    notes = notes_by_id(collection)
    assert set(notes) == {q.id for q in loaded.questions}
    for q in loaded.questions:
        note = notes[q.id]
        assert list(note) == list(FIELDS)
        assert note["Question"] == html_text(q.text)
        assert note["Explanation"] == html_text(q.explanation)
        assert note["Source"] == html_text(q.source or "")
        assert note["Note"] == html_text(q.note or "")
        assert note["Topic"] == html_text(q.topic)
        lettered = note["Options"].split("<br>")
        assert sorted(line.split(") ", 1)[1] for line in lettered) == sorted(
            html_text(option) for option in q.options
        )
        assert note["Answer"].split("<br>") == [
            line for line in lettered if line.split(") ", 1)[1] in map(html_text, q.right_options)
        ]


def test_the_front_shows_the_options_and_the_back_the_answer(
    collection: Collection, deck_file: Path, tmp_path: Path
) -> None:
    """Rendered: the question and lettered options in front; answer, explanation, source behind."""
    loaded, content = exported(deck_file)
    import_package(collection, tmp_path / "sample.apkg", content)
    first = loaded.questions[0]
    (card_id,) = collection.find_cards(f"Id:{first.id}")
    card = collection.get_card(card_id)

    front, back = card.question(), card.answer()

    assert html.escape(first.text) in front
    assert "A) " in front
    assert "D) " in front
    assert html.escape(first.explanation) not in front
    answer = notes_by_id(collection)[first.id]["Answer"]
    assert answer in back
    assert html.escape(first.explanation) in back
    assert html.escape(first.source or "") in back


def test_images_go_in_as_media_named_after_the_deck(
    collection: Collection, deck_file: Path, tmp_path: Path
) -> None:
    """A question's images are media files of the package, and its fields show them."""
    loaded, content = exported(deck_file)

    import_package(collection, tmp_path / "sample.apkg", content)

    name = media_name(loaded, "images/ring.png")
    assert name == "sample-images-ring.png"
    assert (Path(collection.media.dir()) / name).read_bytes() == IMAGE
    note = notes_by_id(collection)["ring"]
    assert note["Image"] == note["ExplanationImage"] == f'<img src="{name}">'
    assert notes_by_id(collection)["plain"]["Image"] == ""


def test_a_new_export_of_the_same_deck_updates_instead_of_adding(
    collection: Collection, deck_file: Path, tmp_path: Path
) -> None:
    """Deck, note type and note ids are stable: a later export updates the notes, adds none."""
    loaded, first = exported(deck_file, timestamp=1_700_000_000)
    import_package(collection, tmp_path / "first.apkg", first)
    guids = {collection.get_note(n).guid for n in collection.find_notes("")}
    reworded = yaml.safe_load(deck_file.read_text())
    reworded["questions"][0]["explanation"] = "Reworded."
    _, second = exported(write(deck_file, reworded), timestamp=1_700_000_060)

    import_package(collection, tmp_path / "second.apkg", second)

    assert collection.note_count() == len(loaded.questions)
    assert {collection.get_note(n).guid for n in collection.find_notes("")} == guids
    assert notes_by_id(collection)[loaded.questions[0].id]["Explanation"] == "Reworded."
    assert len(collection.decks.all_names_and_ids(include_filtered=False)) == 2  # and Default
    names = [m.name for m in collection.models.all_names_and_ids()]
    assert [name for name in names if name.startswith("quizbot")] == [NOTE_TYPE]


def test_tags_carry_the_topic(collection: Collection, deck_file: Path, tmp_path: Path) -> None:
    """Each note is tagged `quizbot` and with its topic as a slug."""
    _, content = exported(deck_file)

    import_package(collection, tmp_path / "sample.apkg", content)

    (note_id,) = collection.find_notes("Id:choose-two-collectives")
    assert sorted(collection.get_note(note_id).tags) == ["nccl-collectives", "quizbot"]
