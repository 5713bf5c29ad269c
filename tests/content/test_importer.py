"""The practice-test importer: verbatim fields, page furniture dropped, format errors located."""

from pathlib import Path

import pytest
import yaml

from content.formats.practice_test import (
    PracticeTestFormatError,
    parse_practice_test,
    slugify,
    to_yaml,
)
from content.loader import DEFAULT_CONTENT_DIR, load_deck

SEED = Path(__file__).parent / "data" / "nca-multi-gpu-5.txt"
TITLE = "NCA Multi-GPU Computing & Scaling 5"
FOOTER = "(NCA) NVIDIA-Certified Associate Practice Test"


def practice_test(*questions: tuple[str, str, str], title: str = "Sample Test") -> str:
    """A practice test in the export format, one (text, answer, explanation) per question."""
    lines = [title, ""]
    for number, (text, answer, explanation) in enumerate(questions, start=1):
        lines += [f"Question {number}", "", text, "", "Accepted Answer", "", answer, ""]
        lines += ["Answer", "", explanation, ""]
    return "\n".join(lines)


def test_seed_import_matches_shipped_deck_verbatim() -> None:
    """Title, source and every text, answer and explanation equal the shipped deck's."""
    imported = parse_practice_test(SEED.read_text(encoding="utf-8"))
    shipped = load_deck(DEFAULT_CONTENT_DIR / "nca-multi-gpu-5.yaml")

    assert (imported.title, imported.source) == (shipped.title, shipped.source)
    assert len(imported.questions) == 5
    for got, want in zip(imported.questions, shipped.questions, strict=True):
        assert (got.text, got.answer, got.explanation) == (want.text, want.answer, want.explanation)


def test_seed_import_ids_are_unique_slugs() -> None:
    """The deck id is the title's slug; question ids are unique, stable slugs of the text."""
    deck = parse_practice_test(SEED.read_text(encoding="utf-8"))

    assert deck.id == "nca-multi-gpu-computing-scaling-5"
    ids = [question.id for question in deck.questions]
    assert ids[0] == "zero-redundancy-optimizer-parallel"
    assert len(set(ids)) == len(ids)
    assert all(slugify(qid) == qid for qid in ids)
    assert all(question.topic == "general" for question in deck.questions)


def test_page_headers_and_footers_never_leak_into_fields() -> None:
    """Neither the footer nor copies of the title end up in any question field."""
    deck = parse_practice_test(SEED.read_text(encoding="utf-8"))

    for question in deck.questions:
        for value in (question.text, question.answer, question.explanation):
            assert FOOTER not in value
            assert TITLE not in value


def test_footer_between_and_inside_questions_is_dropped() -> None:
    """Per-page furniture is dropped mid-document too, even inside a question's parts."""
    clean = practice_test(("Q one?", "A one", "E one."), ("Q two?", "A two", "E two."), title=TITLE)
    paged = clean.replace("Question 2", f"Footer line\n\n{TITLE}\n\nQuestion 2").replace(
        "E two.", "E two.\nFooter line\nmore two."
    )

    deck = parse_practice_test(paged)

    assert [q.explanation for q in deck.questions] == ["E one.", "E two. more two."]
    assert deck.source == "Footer line"


def test_repeated_whole_answer_is_kept() -> None:
    """An answer shared by two questions is content, not a footer."""
    deck = parse_practice_test(
        practice_test(("Q one?", "NCCL", "E one."), ("Q two?", "NCCL", "E."))
    )

    assert [q.answer for q in deck.questions] == ["NCCL", "NCCL"]
    assert deck.source == "Sample Test"


def test_multiline_parts_are_joined_with_single_spaces() -> None:
    """Lines and paragraphs of one part become one string joined by single spaces."""
    deck = parse_practice_test(practice_test(("First line\nsecond\n\nthird", "A", "E  \n  more")))

    assert deck.questions[0].text == "First line second third"
    assert deck.questions[0].explanation == "E more"


def test_to_yaml_round_trips_with_empty_wrong_lists() -> None:
    """The YAML re-parses to exactly the imported content, in deck layout, with `wrong: []`."""
    deck = parse_practice_test(SEED.read_text(encoding="utf-8"))

    data = yaml.safe_load(to_yaml(deck))

    assert list(data) == ["id", "title", "source", "questions"]
    assert (data["id"], data["title"], data["source"]) == (deck.id, deck.title, deck.source)
    assert data["questions"] == [
        {
            "id": q.id,
            "topic": q.topic,
            "text": q.text,
            "answer": q.answer,
            "wrong": [],
            "explanation": q.explanation,
        }
        for q in deck.questions
    ]


def test_to_yaml_keeps_text_that_needs_quoting() -> None:
    """Colons, quotes, leading symbols and non-ASCII text survive the YAML round trip."""
    odd = ("Key: value? 'quoted' \"double\"", "- dash #hash", "Ünïcödé → ok: yes")
    deck = parse_practice_test(practice_test(odd))

    question = yaml.safe_load(to_yaml(deck))["questions"][0]

    assert (question["text"], question["answer"], question["explanation"]) == odd


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (
            "T\nQuestion 1\nQ?\nAccepted Answer\nA\nAnswer\nE\nQuestion 2\nQ?\nAnswer\nE\n",
            10,
            "'Answer' must follow 'Accepted Answer'",
        ),
        (
            "T\nQuestion 1\nQ?\nAccepted Answer\nA\nAnswer\nE\nQuestion 2\nQ two?\n",
            9,
            "Question 2 (line 8) has no 'Accepted Answer' before this line",
        ),
        (
            "T\nQuestion 1\nQ?\nAccepted Answer\nA\nQuestion 2\n",
            6,
            "Question 1 (line 2) has no 'Answer' before this line",
        ),
        ("T\n\nsome text\n", 3, "expected 'Question 1', found 'some text'"),
        ("T\n\n", 2, "no questions: expected 'Question 1'"),
        ("\n \n", 1, "empty input: expected a title line"),
        ("T\nQuestion 2\nQ?\n", 2, "expected 'Question 1'"),
        ("T\nQuestion 1\nAccepted Answer\nA\nAnswer\nE\n", 2, "Question 1 (line 2) has no"),
    ],
    ids=[
        "answer-without-accepted",
        "missing-accepted-answer-at-end",
        "missing-explanation",
        "text-before-first-question",
        "no-questions",
        "empty",
        "numbering-gap",
        "no-question-text",
    ],
)
def test_malformed_input_raises_naming_the_line(text: str, line: int, message: str) -> None:
    """Malformed input raises PracticeTestFormatError with the 1-based line and the cause."""
    with pytest.raises(PracticeTestFormatError) as caught:
        parse_practice_test(text)

    assert caught.value.line == line
    assert str(caught.value).startswith(f"line {line}: {message}")
