"""`check-decks --strict`: each rule trips on a deck built to break it; a clean deck trips none."""

from pathlib import Path
from typing import Any

import pytest

from bot.cli.main import main
from content.checks import strict_problems
from content.loader import DEFAULT_CONTENT_DIR
from tests.content.builders import clean_questions, deck, question, write


def strict(tmp_path: Path, *decks: dict[str, Any]) -> list[str]:
    """The strict problems of `decks`, written to deck-a.yaml, deck-b.yaml, … in tmp_path."""
    for letter, data in zip("abcdefgh", decks, strict=False):
        write(tmp_path / f"deck-{letter}.yaml", {**data, "id": f"deck-{letter}"})
    return [str(problem) for problem in strict_problems(tmp_path)]


def test_shipped_decks_pass_strict() -> None:
    """Every deck shipped in content/ passes the strict checker."""
    assert strict_problems(DEFAULT_CONTENT_DIR) == []


def test_clean_deck_trips_no_rule(tmp_path: Path) -> None:
    """Ten sourced, distinct, balanced questions give no problem, deck-level tells included."""
    assert strict(tmp_path, deck(*clean_questions())) == []


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"source": None}, "q1: source: missing: give the URL of the primary document"),
        ({"source": "Wikipedia"}, "q1: source: must start with an http(s) URL"),
        ({"source": "www.nvidia.com/docs"}, "q1: source: must start with an http(s) URL"),
        ({"source": "ftp://example.org/x"}, "q1: source: must start with an http(s) URL"),
        ({"source": "https:///no-host"}, "q1: source: must start with an http(s) URL"),
        (
            {"wrong": ["PCIe", "nvlink!", "Ethernet"]},
            "q1: wrong #2: 'nvlink!' is the same as answer after ignoring case, punctuation",
        ),
        (
            {"wrong": ["PCIe switch", "PCIe switches", "Ethernet"]},
            "q1: wrong #2: 'PCIe switches' is the same as wrong #1",
        ),
        (
            {"wrong": ["Tensor-parallelism", "tensor parallelism.", "Ethernet"]},
            "q1: wrong #2: 'tensor parallelism.' is the same as wrong #1",
        ),
        (
            {"wrong": ["PCIe", "Ethernet", "All of the above"]},
            "q1: wrong #3: 'All of the above' points at the other options",
        ),
        (
            {"answer": "None of the above"},
            "q1: answer: 'None of the above' points at the other options",
        ),
        ({"wrong": ["PCIe", "both of the above"]}, "q1: wrong #2: 'both of the above' points"),
        (
            {"explanation": "NVLink " + "is a very fast GPU interconnect " * 7 + ". Short."},
            "q1: explanation: the first sentence is 232 characters, over 200",
        ),
        (
            {
                "text": "Which interconnect links the GPUs inside one DGX node?",
                "answer": "NVLink inside the node",
            },
            "q1: answer: only the right answer repeats the question's key words (node)",
        ),
    ],
    ids=[
        "missing-source",
        "source-not-url",
        "source-without-scheme",
        "source-ftp",
        "source-without-host",
        "option-repeats-answer-with-punctuation",
        "option-plural",
        "option-hyphen-and-period",
        "all-of-the-above",
        "none-of-the-above-answer",
        "both-of-the-above",
        "long-first-sentence",
        "only-answer-echoes-stem",
    ],
)
def test_question_rule_is_reported_by_file_question_and_field(
    tmp_path: Path, changes: dict[str, Any], expected: str
) -> None:
    """A question breaking one rule yields exactly that problem, as `file: id: field: what`."""
    problems = strict(tmp_path, deck(question(**changes)))

    assert len(problems) == 1, problems
    assert problems[0].startswith(f"deck-a.yaml: {expected}")


@pytest.mark.parametrize(
    "wrong",
    [
        ["1.5x", "15x", "2.5x"],
        ["C++", "C", "C#"],
        ["NCCL 2.18", "NCCL 2.28", "NCCL 2.8"],
        ["PCIe switch", "PCIe switches are slow", "Ethernet"],
    ],
    ids=["decimals", "symbols", "versions", "longer-option"],
)
def test_different_options_are_not_duplicates(tmp_path: Path, wrong: list[str]) -> None:
    """Options that differ in a number, a symbol or a word are not reported as duplicates."""
    assert strict(tmp_path, deck(question(wrong=wrong))) == []


def test_explanation_with_abbreviations_and_numbers_is_one_short_sentence(tmp_path: Path) -> None:
    """'e.g.', 'vs.', 'i.e.', 1.5x and 2.28 end no sentence; text after the real end is free."""
    explanation = (
        "NCCL 2.28 (e.g. on NVLink vs. PCIe, i.e. inside a node) is 1.5x faster. "
        + "More detail follows here. " * 20
    )

    assert strict(tmp_path, deck(question(explanation=explanation))) == []


def test_exact_duplicate_question_in_one_deck(tmp_path: Path) -> None:
    """The same stem twice, whatever the case and punctuation, is reported on the later one."""
    later = question("q2", text="which interconnect links GPUs inside one node")

    assert strict(tmp_path, deck(question(), later)) == [
        "deck-a.yaml: q2: text: repeats the question of q1"
    ]


def test_reworded_question_across_decks(tmp_path: Path) -> None:
    """A rewording in another deck is reported on the later file, naming the earlier question."""
    reworded = question("other", text="Inside one node, which interconnect links the GPUs?")

    assert strict(tmp_path, deck(question()), deck(reworded)) == [
        "deck-b.yaml: other: text: repeats the question of deck-a.yaml: q1"
    ]


def test_only_the_answer_rule_is_quiet_when_a_wrong_option_echoes_too(tmp_path: Path) -> None:
    """If a wrong option repeats a key word of the stem as well, the answer gives nothing away."""
    echoing = question(
        text="Which interconnect links the GPUs inside one DGX node?",
        answer="NVLink inside the node",
        wrong=["PCIe across the node", "Ethernet", "InfiniBand"],
    )

    assert strict(tmp_path, deck(echoing)) == []


def longest_answer(raw: dict[str, Any]) -> dict[str, Any]:
    """`raw` with its answer made the longest option."""
    return {**raw, "answer": raw["answer"] + " (" + "x" * 12 + ")"}


def test_deck_where_the_answer_is_usually_longest_is_reported(tmp_path: Path) -> None:
    """Longest answer in 10 of 10 questions (fair share 2.5): a deck-level problem listing them."""
    questions = [longest_answer(raw) for raw in clean_questions()]

    problems = strict(tmp_path, deck(*questions))

    assert len(problems) == 1, problems
    assert problems[0].startswith(
        "deck-a.yaml: -: answer: the right answer is the longest option in 10 of 10 questions "
        "(fair share 2.5, chance p=9.54e-07): planet, gold, byte,"
    )


def test_answer_longest_a_little_above_chance_is_not_reported(tmp_path: Path) -> None:
    """Four of ten (fair share 2.5) is over 1.5x but likely by chance (p=0.22): no problem."""
    questions = clean_questions()
    questions[0], questions[1] = longest_answer(questions[0]), longest_answer(questions[1])

    assert strict(tmp_path, deck(*questions)) == []


def test_deck_tells_need_ten_questions(tmp_path: Path) -> None:
    """Nine questions, every answer the longest, are too few to judge a deck by."""
    questions = [longest_answer(raw) for raw in clean_questions()[:9]]

    assert strict(tmp_path, deck(*questions)) == []


def test_deck_where_the_answer_echoes_the_stem_is_reported(tmp_path: Path) -> None:
    """Answers repeating the stem's words more than any wrong option do, deck-wide, are counted."""
    questions = [
        {**raw, "answer": raw["answer"] + " " + raw["text"].split()[-1].strip("?")}
        for raw in clean_questions()
    ]

    problems = strict(tmp_path, deck(*questions))

    assert problems[-1].startswith(
        "deck-a.yaml: -: answer: the right answer repeats more of the question's key words "
        "than any wrong option in 10 of 10 questions (fair share 2.5"
    )
    per_question = [p for p in problems[:-1] if ": answer: only the right answer repeats" in p]
    assert len(per_question) == 10


def test_strict_reports_load_problems_too(tmp_path: Path) -> None:
    """A file that does not load is reported as without --strict; the others are still checked."""
    write(tmp_path / "broken.yaml", "id: [unclosed\n")
    write(tmp_path / "ok.yaml", deck(question(source=None)))

    problems = [str(problem) for problem in strict_problems(tmp_path)]

    assert problems[0].startswith("broken.yaml: -: -: invalid YAML")
    assert problems[1].startswith("ok.yaml: q1: source: missing")


def test_cli_strict_exits_1_and_prints_each_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`check-decks --strict DIR` prints one line per problem and exits 1; plain mode passes."""
    write(tmp_path / "a.yaml", deck(question(source=None)))

    assert main(["check-decks", "--strict", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    assert out.startswith("a.yaml: q1: source: missing")
    assert "1 problem(s)" in err
    assert main(["check-decks", str(tmp_path)]) == 0


def test_cli_strict_passes_the_shipped_decks(capsys: pytest.CaptureFixture[str]) -> None:
    """`check-decks --strict` with no folder checks content/ and exits 0."""
    assert main(["check-decks", "--strict"]) == 0
    assert "pass the strict content rules" in capsys.readouterr().out
