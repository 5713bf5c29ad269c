"""Deck questions with several right options ("choose N"), scenario marks and images: what
loads, and each mistake reported as `file: question: field: message`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from content.checks.picks import asked_picks
from content.checks.strict import strict_problems
from content.loader import PNG_SIGNATURE as PNG
from content.loader import DeckError, load_deck
from tests.content.builders import deck, question, write


def choose_two(**changes: Any) -> dict[str, Any]:
    """A valid "choose two" question."""
    base: dict[str, Any] = {
        "text": "Which interconnects link GPUs inside one node? Choose two.",
        "answer": None,
        "answers": ["NVLink", "PCIe"],
        "wrong": ["Ethernet", "InfiniBand"],
    }
    return question("q1", **(base | changes))


def problems(tmp_path: Path, *questions: dict[str, Any]) -> list[str]:
    with pytest.raises(DeckError) as caught:
        load_deck(write(tmp_path / "broken.yaml", deck(*questions)))
    return [str(problem) for problem in caught.value.problems]


def test_a_choose_two_question_loads_with_its_right_options_first(tmp_path: Path) -> None:
    """`answers` gives the right options, first in `options`; `picks` says how many."""
    loaded = load_deck(write(tmp_path / "ok.yaml", deck(choose_two(scenario=True))))
    (only,) = loaded.questions
    assert only.right_options == ("NVLink", "PCIe")
    assert only.options == ("NVLink", "PCIe", "Ethernet", "InfiniBand")
    assert (only.picks, only.scenario, only.answer) == (2, True, None)


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"answer": "NVLink"}, "q1: answer: give either `answer`"),
        ({"answers": None}, "q1: answer: required field is missing (or `answers:`"),
        ({"answers": ["NVLink"]}, "q1: answers: needs two or more right options"),
        ({"wrong": []}, "q1: wrong: needs 1-6 wrong options (2-8 options in total), found 0"),
        ({"answers": ["NVLink", " nvlink"]}, "q1: answers #2: 'nvlink' repeats answer #1"),
        ({"wrong": ["Ethernet", "pcie"]}, "q1: wrong #2: 'pcie' repeats answer #2"),
        ({"image": "../secret.png"}, "q1: image: must be the path of a .png file"),
        ({"image": "ring.jpg"}, "q1: image: must be the path of a .png file"),
    ],
    ids=[
        "both",
        "neither",
        "one-in-answers",
        "no-wrong",
        "dup-answers",
        "wrong-repeats",
        "up",
        "jpg",
    ],
)
def test_a_broken_choose_question_names_its_field(
    tmp_path: Path, changes: dict[str, Any], expected: str
) -> None:
    """Each mistake is one problem naming the question and the field."""
    found = problems(tmp_path, choose_two(**changes))
    assert len(found) == 1
    assert expected in found[0]


def test_images_must_be_png_files_beside_the_deck(tmp_path: Path) -> None:
    """A missing image and a file that is not a PNG are refused; a PNG beside it loads."""
    (tmp_path / "images").mkdir()
    (tmp_path / "images" / "ring.png").write_bytes(PNG + b"rest")
    (tmp_path / "images" / "fake.png").write_bytes(b"GIF89a")
    ok = question("ok", image="images/ring.png", explanation_image="images/ring.png")
    missing = question("gone", text="Gone?", image="images/gone.png")
    fake = question("fake", text="Fake?", explanation_image="images/fake.png")
    assert problems(tmp_path, ok, missing, fake) == [
        "broken.yaml: gone: image: no file images/gone.png beside the deck",
        "broken.yaml: fake: explanation_image: images/fake.png is not a PNG file",
    ]
    assert load_deck(write(tmp_path / "fine.yaml", deck(ok))).questions[0].image == (
        "images/ring.png"
    )


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("Which two? Choose two.", 2),
        ("Which apply? (Select 3)", 3),
        ("Pick THREE of these.", 3),
        ("Which two features does RoCE rely on?", None),
        ("What does NCCL choose by default?", None),
    ],
)
def test_the_stem_says_how_many_to_pick(text: str, asked: int | None) -> None:
    """Only an instruction ("choose/select/pick N") counts, not "which two"."""
    assert asked_picks(text) == asked


def test_strict_checks_match_the_stem_to_the_number_of_answers(tmp_path: Path) -> None:
    """--strict: a "choose N" stem must say N, say the right N, and a one-answer stem must not
    ask for more."""
    folder = tmp_path / "decks"
    folder.mkdir()
    silent = choose_two(text="Which interconnects link GPUs inside one node?")
    wrong_n = choose_two(text="Which link GPUs? Choose three.") | {"id": "q2"}
    single = question("q3", text="Which bus carries storage traffic? Choose two.")
    write(folder / "d.yaml", deck(silent, wrong_n, single))
    found = [str(p) for p in strict_problems(folder) if "choose" in str(p).lower()]
    assert found == [
        "d.yaml: q1: text: a question with 2 right options must say so in the stem, e.g. "
        '"Choose 2."',
        "d.yaml: q2: text: the stem asks to choose 3, but `answers` has 2",
        "d.yaml: q3: text: the stem asks to choose 2, but the question has one `answer`",
    ]
