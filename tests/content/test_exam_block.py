"""A deck's optional `exam:` block: defaults, and mistakes reported as file: -: field: what."""

from pathlib import Path
from typing import Any

import pytest

from content.loader import DeckError, load_deck
from content.models import ExamBlock
from tests.content.builders import deck, question, write


def exam_deck(exam: Any) -> dict[str, Any]:
    questions = [question(f"n{i}", topic="nccl") for i in range(3)]
    questions += [question(f"m{i}", topic="memory", text=f"Memory {i}?") for i in range(2)]
    return deck(*questions, exam=exam)


def problems(tmp_path: Path, exam: Any) -> list[str]:
    with pytest.raises(DeckError) as caught:
        load_deck(write(tmp_path / "exam.yaml", exam_deck(exam)))
    return [str(problem) for problem in caught.value.problems]


def test_an_exam_block_loads_with_its_weights_and_defaults(tmp_path: Path) -> None:
    """Given fields are kept (an integer weight is a number too); the others take defaults."""
    loaded = load_deck(write(tmp_path / "exam.yaml", exam_deck({"weights": {"nccl": 3}})))
    assert loaded.exam == ExamBlock(weights={"nccl": 3.0})
    assert (loaded.exam.questions, loaded.exam.minutes, loaded.exam.pass_percent) == (20, 30, 70)
    full = {
        "questions": 4,
        "minutes": 12,
        "pass_percent": 80,
        "weights": {"nccl": 2.5, "memory": 1},
    }
    assert load_deck(write(tmp_path / "full.yaml", exam_deck(full))).exam == ExamBlock(**full)


def test_a_deck_without_an_exam_block_has_none(tmp_path: Path) -> None:
    """The block is optional: the core then uses 20 questions, 30 minutes, 70%, by topic size."""
    assert load_deck(write(tmp_path / "plain.yaml", deck())).exam is None


def test_a_weight_for_a_topic_no_question_has_names_it(tmp_path: Path) -> None:
    """A misspelt topic in `weights` is an error naming the topic and the deck's topics."""
    assert problems(tmp_path, {"questions": 2, "weights": {"ncc1": 1}}) == [
        "exam.yaml: -: exam weights ncc1: no question has the topic 'ncc1' (topics: memory, nccl)"
    ]


def test_more_questions_than_the_weighted_topics_hold_is_an_error(tmp_path: Path) -> None:
    """An exam of 4 questions from a topic of 2 cannot be drawn."""
    assert problems(tmp_path, {"questions": 4, "weights": {"memory": 1}}) == [
        "exam.yaml: -: exam questions: asks for 4 questions, but the deck has 2 "
        "in its weighted topics"
    ]
    assert problems(tmp_path, {"questions": 6}) == [
        "exam.yaml: -: exam questions: asks for 6 questions, but the deck has 5 in all"
    ]


@pytest.mark.parametrize(
    ("exam", "field", "message"),
    [
        ({"questions": 0}, "exam questions", "greater than or equal to 1"),
        ({"minutes": "30"}, "exam minutes", "valid integer"),
        ({"pass_percent": 101}, "exam pass_percent", "less than or equal to 100"),
        ({"weights": {"nccl": 0}}, "exam weights nccl", "greater than 0"),
        ({"weights": {}}, "exam weights", "at least 1"),
        ({"time": 30}, "exam time", "unknown key"),
        ("soon", "exam", "must be a mapping"),
    ],
)
def test_bad_exam_fields_are_reported_by_field(
    tmp_path: Path, exam: Any, field: str, message: str
) -> None:
    """Each wrong value names its field under `exam` and what is wrong with it."""
    found = problems(tmp_path, exam)
    assert len(found) == 1
    assert found[0].startswith(f"exam.yaml: -: {field}: ")
    assert message in found[0]
