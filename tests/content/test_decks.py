"""Deck loading: shipped decks are valid, and broken files are reported as file: id: field: what."""

from pathlib import Path
from typing import Any

import pytest

from content.loader import (
    DEFAULT_CONTENT_DIR,
    DeckError,
    DeckProblem,
    check_decks,
    load_deck,
    load_decks,
)
from content.models import Question, max_rendered_length
from tests.content.builders import deck, question, write


def problems_of(path: Path) -> list[str]:
    """The problems load_deck reports for `path`, as strings."""
    with pytest.raises(DeckError) as caught:
        load_deck(path)
    return [str(problem) for problem in caught.value.problems]


def test_shipped_decks_load_without_problems() -> None:
    """Every deck in the content directory passes validation."""
    assert check_decks(DEFAULT_CONTENT_DIR) == []
    assert "nca-multi-gpu-5" in load_decks(DEFAULT_CONTENT_DIR)


def test_nca_deck_has_five_questions_with_four_options() -> None:
    """The first deck ships five questions, each with the answer and three wrong options."""
    nca = load_decks(DEFAULT_CONTENT_DIR)["nca-multi-gpu-5"]

    assert nca.title == "NCA Multi-GPU Computing & Scaling 5"
    assert nca.source == "(NCA) NVIDIA-Certified Associate Practice Test"
    assert len(nca.questions) == 5
    assert all(len(q.options) == 4 for q in nca.questions)


def test_nca_wrong_options_match_the_answer_length() -> None:
    """No nca option differs from its answer's length by more than 25%, so length gives nothing."""
    nca = load_decks(DEFAULT_CONTENT_DIR)["nca-multi-gpu-5"]

    for q in nca.questions:
        for option in q.wrong:
            assert 0.75 <= len(option) / len(q.answer) <= 1.25, (q.id, option)


def test_options_put_the_answer_first_and_texts_are_stripped(tmp_path: Path) -> None:
    """Option 0 is the answer, and surrounding whitespace is stripped from every text."""
    path = write(tmp_path / "ok.yml", deck(question(text="  Padded?  ", wrong=[" PCIe\n"])))

    loaded = load_deck(path).questions[0]

    assert loaded.text == "Padded?"
    assert loaded.options == ("NVLink", "PCIe")


def test_max_rendered_length_counts_text_options_and_headroom() -> None:
    """The estimate is text + each option plus 4 + 200, in UTF-16 units as Telegram counts."""
    q = Question.model_validate(question(text="Why 🚀?", answer="abc", wrong=["de"]))

    assert max_rendered_length(q) == (len("Why ?") + 2) + (3 + 4) + (2 + 4) + 200


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (
            deck(question("a"), question("a", text="Another?")),
            "broken.yaml: a: id: duplicate question id, already used by question #1",
        ),
        (
            deck(question(wrong=[])),
            "broken.yaml: q1: wrong: needs 1-7 wrong options (2-8 options in total), found 0",
        ),
        (
            deck(question(wrong=[f"Option {n}" for n in range(8)])),
            "broken.yaml: q1: wrong: needs 1-7 wrong options (2-8 options in total), found 8",
        ),
        (
            deck(question(wrong=["PCIe", "  nvlink "])),
            "broken.yaml: q1: wrong #2: 'nvlink' repeats the answer (ignoring case and spaces)",
        ),
        (
            deck(question(wrong=["PCIe", "pcie"])),
            "broken.yaml: q1: wrong #2: 'pcie' repeats wrong #1 (ignoring case and spaces)",
        ),
        (
            deck(question(explanation=None)),
            "broken.yaml: q1: explanation: required field is missing",
        ),
        (
            deck(question(explanation="x" * 3501)),
            "broken.yaml: q1: explanation: String should have at most 3500 characters",
        ),
        (deck(question(answer="   ")), "broken.yaml: q1: answer: must not be empty"),
        (deck(question(wrong=["PCIe", ""])), "broken.yaml: q1: wrong #2: must not be empty"),
        (deck(question(hint="think")), "broken.yaml: q1: hint: unknown key"),
        (deck(author="me"), "broken.yaml: -: author: unknown key"),
        (deck(title=None), "broken.yaml: -: title: required field is missing"),
        (deck(questions=[]), "broken.yaml: -: questions: List should have at least 1 item"),
        (
            deck(question("Q 1")),
            "broken.yaml: Q 1: id: must be a slug: lowercase letters, digits and single hyphens",
        ),
        (deck(question(), question(id=None)), "broken.yaml: #2: id: required field is missing"),
        (deck(question(answer=True)), "broken.yaml: q1: answer: must be text"),
        (deck("not a question"), "broken.yaml: #1: -: must be a mapping of keys to values"),
        (
            deck(question(text="x" * 4000)),
            "broken.yaml: q1: text: question and options render to about 4244 characters, "
            "over Telegram's 4096-character message limit",
        ),
        ("id: x\ntitle: [unclosed\n", "broken.yaml: -: -: invalid YAML at line 3, column 1: "),
        (
            "id: a\nid: b\n",
            "broken.yaml: -: -: invalid YAML at line 2, column 1: duplicate key 'id'",
        ),
        ("", "broken.yaml: -: -: file is empty"),
        ("- a list\n", "broken.yaml: -: -: must be a mapping with id, title, source and questions"),
    ],
    ids=[
        "duplicate-question-id",
        "one-option",
        "nine-options",
        "option-repeats-answer",
        "duplicate-wrong-options",
        "missing-explanation",
        "explanation-too-long",
        "blank-answer",
        "empty-wrong-option",
        "unknown-question-key",
        "unknown-deck-key",
        "missing-title",
        "no-questions",
        "bad-question-slug",
        "question-without-id",
        "yaml-boolean-answer",
        "question-not-a-mapping",
        "text-too-long",
        "bad-yaml",
        "duplicate-yaml-key",
        "empty-file",
        "not-a-mapping",
    ],
)
def test_broken_deck_is_reported_by_file_question_and_field(
    tmp_path: Path, data: object, expected: str
) -> None:
    """A broken file yields one problem whose text starts `file: question-id: field: what`."""
    problems = problems_of(write(tmp_path / "broken.yaml", data))

    assert len(problems) == 1, problems
    assert problems[0].startswith(expected)


def test_every_problem_in_a_file_is_reported(tmp_path: Path) -> None:
    """Mistakes in several questions of one file are all reported, in order."""
    path = write(tmp_path / "two.yaml", deck(question("a", text=""), question("b", topic=None)))

    assert problems_of(path) == [
        "two.yaml: a: text: must not be empty",
        "two.yaml: b: topic: required field is missing",
    ]


def test_load_decks_collects_problems_of_all_files(tmp_path: Path) -> None:
    """One DeckError lists every file's problems and duplicate deck ids, files in name order."""
    write(tmp_path / "a.yaml", deck())
    write(tmp_path / "b.yml", deck())
    write(tmp_path / "c.yaml", deck(title=""))
    write(tmp_path / "notes.txt", "not a deck")

    with pytest.raises(DeckError) as caught:
        load_decks(tmp_path)

    assert str(caught.value) == (
        "b.yml: -: id: deck id 'sample' is already used by a.yaml\n"
        "c.yaml: -: title: must not be empty"
    )
    assert check_decks(tmp_path) == caught.value.problems


def test_load_decks_keys_decks_by_id(tmp_path: Path) -> None:
    """Both .yaml and .yml files load, keyed by deck id; other files are ignored."""
    write(tmp_path / "one.yaml", deck(id="one"))
    write(tmp_path / "two.yml", deck(id="two"))
    write(tmp_path / "README.md", "# decks")

    assert sorted(load_decks(tmp_path)) == ["one", "two"]


def test_empty_or_missing_directory_is_an_error(tmp_path: Path) -> None:
    """A directory without deck files, or no directory at all, is a problem, not zero decks."""
    assert [p.message for p in check_decks(tmp_path)] == ["no deck files (*.yaml, *.yml) found"]
    assert check_decks(tmp_path / "missing") == [
        DeckProblem(str(tmp_path / "missing"), "-", "-", "not a directory")
    ]


def test_source_and_note_are_optional_and_stripped(tmp_path: Path) -> None:
    """A question may carry a source and a note; both are stripped, and both may be left out."""
    sourced = question("a", source="  https://example.org/doc (2.1) ", note=" Accurate: x. ")
    path = write(tmp_path / "ok.yaml", deck(sourced, question("b", source=None)))

    first, second = load_deck(path).questions

    assert (first.source, first.note) == ("https://example.org/doc (2.1)", "Accurate: x.")
    assert (second.source, second.note) == (None, None)


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"note": "x" * 601}, "broken.yaml: q1: note: String should have at most 600 characters"),
        ({"note": "  "}, "broken.yaml: q1: note: must not be empty"),
        ({"source": ""}, "broken.yaml: q1: source: must not be empty"),
        ({"source": "x" * 501}, "broken.yaml: q1: source: String should have at most 500"),
        (
            {"explanation": "x" * 3400, "note": "y" * 600},
            "broken.yaml: q1: note: explanation and note render to about 4202 characters, "
            "over Telegram's 4096-character message limit",
        ),
    ],
    ids=["note-too-long", "blank-note", "empty-source", "source-too-long", "reply-too-long"],
)
def test_broken_source_or_note_is_reported_on_its_field(
    tmp_path: Path, changes: dict[str, Any], expected: str
) -> None:
    """Source and note mistakes are reported as `file: question-id: field: what`."""
    problems = problems_of(write(tmp_path / "broken.yaml", deck(question(**changes))))

    assert len(problems) == 1, problems
    assert problems[0].startswith(expected)
