"""Aiken import: question, lettered options and `ANSWER:` become a draft deck whose topics and
explanations are left to fill in; mistakes are named by line."""

from pathlib import Path

import pytest
import yaml

from content.formats.aiken import parse_aiken, read_aiken
from content.formats.drafts import DeckDraft, FormatImportError
from content.models import Deck

SAMPLE = """\
What links GPUs inside one node?
A. NVLink
B) PCIe
C. Ethernet
ANSWER: A

Which library runs collectives
on GPUs?
A) MPI
B) NCCL
ANSWER: B
"""


def parse(text: str) -> DeckDraft:
    """The draft imported from Aiken `text`, as file deck.aiken."""
    return parse_aiken(text, "deck.aiken", deck=("deck", "Deck", "test"))


def problems(text: str) -> list[str]:
    """The problems importing Aiken `text` raises, as strings."""
    with pytest.raises(FormatImportError) as caught:
        parse(text)
    return [str(problem) for problem in caught.value.problems]


def test_questions_options_and_the_lettered_answer() -> None:
    """`A.` and `A)` options, the right one by `ANSWER:`, text over several lines kept."""
    first, second = parse(SAMPLE).questions

    assert (first["text"], first["answer"], first["wrong"]) == (
        "What links GPUs inside one node?",
        "NVLink",
        ["PCIe", "Ethernet"],
    )
    assert (second["text"], second["answer"], second["wrong"]) == (
        "Which library runs collectives\non GPUs?",
        "NCCL",
        ["MPI"],
    )
    assert [first["id"], second["id"]] == ["links-gpus-inside-one", "library-runs-collectives-gpus"]


def test_topics_and_explanations_are_left_empty_to_fill_in() -> None:
    """Aiken has neither: both are written empty, and the draft says they are to fill in."""
    draft = parse(SAMPLE)

    data = yaml.safe_load(draft.to_yaml())
    assert [(q["topic"], q["explanation"]) for q in data["questions"]] == [("", ""), ("", "")]
    ids = [q["id"] for q in data["questions"]]
    assert draft.to_fill() == {"topic": ids, "explanation": ids}


def test_the_draft_loads_once_filled_in() -> None:
    """Filling in the empty fields is all a draft needs to be a deck."""
    data = parse(SAMPLE).data()
    for question in data["questions"]:
        question.update(topic="networking", explanation="Because.")

    assert len(Deck.model_validate(data).questions) == 2


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Which?\nA. Yes\nB. No\n", ["line 1: no ANSWER: line for this question"]),
        (
            "Which?\nA. Yes\nB. No\nWhat?\nA. x\nB. y\nANSWER: A\n",
            ["line 1: no ANSWER: line after this question's options (A. …)"],
        ),
        ("Which?\nA. Yes\nC. No\nANSWER: A\n", ["line 3: expected option B, found C"]),
        ("Which?\nA. Yes\nB. No\nANSWER: C\n", ["line 4: ANSWER: must name one option, A to B"]),
        ("Which?\nA. Yes\nB. No\nANSWER: A, B\n", ["line 4: ANSWER: must name one option"]),
        ("Which?\nANSWER: A\n", ["line 1: a question without options (A. …) before its ANSWER:"]),
        ("ANSWER: A\n", ["line 1: an ANSWER: line without a question before it"]),
        (
            "A. Yes\nB. No\nANSWER: A\n",
            [
                "line 1: an option (A.) before any question text",
                "line 2: an option (B.) before any question text",
                "line 3: an ANSWER: line without a question before it",
            ],
        ),
        ("Which?\nA. Yes\nB. yes\nANSWER: B\n", ["line 2: wrong #1: 'Yes' repeats the answer"]),
        ("Which?\nA. Yes\nANSWER: A\n", ["line 1: wrong: needs 1-7 wrong options"]),
        ("", ["no questions in the file"]),
    ],
    ids=[
        "no-answer-line-at-end",
        "no-answer-line-before-next",
        "letters-out-of-order",
        "answer-names-no-option",
        "two-answers",
        "no-options",
        "answer-without-question",
        "options-without-question",
        "duplicate-option",
        "one-option",
        "empty-file",
    ],
)
def test_mistakes_are_reported_at_their_line(text: str, expected: list[str]) -> None:
    """Each mistake names the file and its line (the option's own, where it has one)."""
    found = problems(text)

    assert len(found) == len(expected), found
    for got, want in zip(found, expected, strict=True):
        assert got.startswith(f"deck.aiken: {want}"), got


def test_read_aiken_takes_crlf_and_the_file_name(tmp_path: Path) -> None:
    """CRLF line ends are read; the deck id and title default to the file's name."""
    path = tmp_path / "exam-1.aiken"
    path.write_bytes(b"Which?\r\nA. Yes\r\nB. No\r\nANSWER: B\r\n")

    draft = read_aiken(path, title="Exam one")

    assert (draft.id, draft.title) == ("exam-1", "Exam one")
    assert draft.questions[0]["answer"] == "No"
