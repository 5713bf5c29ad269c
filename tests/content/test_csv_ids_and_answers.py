"""CSV import's `id` column and numbered `answer1…N` columns: ids kept, several right options
read as a "choose N" question, and their mistakes named by row and column."""

import pytest

from content.formats.spreadsheet import CsvImportError, parse_csv_deck
from content.models import Deck


def parse(text: str) -> Deck:
    """The deck imported from CSV `text`, as file deck.csv."""
    return parse_csv_deck(text, "deck.csv", deck_id="deck", title="Deck", source="test")


def problems(text: str) -> list[str]:
    """The problems importing CSV `text` raises, as strings."""
    with pytest.raises(CsvImportError) as caught:
        parse(text)
    return [str(problem) for problem in caught.value.problems]


def test_the_id_column_gives_ids_and_the_others_avoid_them() -> None:
    """A given id is kept; an empty cell gets one made from the text, never one given later."""
    text = (
        "id,question,answer,wrong,explanation\n"
        ",What does NCCL do?,Collectives,Storage,So.\n"
        "nccl,What else does NCCL do?,Broadcasts,Storage,So.\n"
    )

    assert [q.id for q in parse(text).questions] == ["nccl-2", "nccl"]


def test_numbered_answer_columns_make_a_choose_n_question() -> None:
    """Two filled `answer N` cells are `answers`; one is `answer`; empty cells are skipped."""
    text = (
        "Question,Answer 1,Answer 2,Wrong 1,Wrong 2,Explanation\n"
        "Which two are collectives? Choose two.,all-reduce,broadcast,malloc,fork,So.\n"
        "Which one is a collective?,all-gather,,malloc,,So.\n"
    )

    choose, single = parse(text).questions

    assert (choose.answers, choose.wrong) == (["all-reduce", "broadcast"], ["malloc", "fork"])
    assert (single.answer, single.answers) == ("all-gather", None)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "id,question,answer,wrong,explanation\nq1,Why?,Yes,No,So.\nq1,How?,Yes,No,So.\n",
            "deck.csv: row 3: id: 'q1' is already the id of row 2",
        ),
        (
            "id,question,answer,wrong,explanation\nNot A Slug,Why?,Yes,No,So.\n",
            "deck.csv: row 2: id: must be a slug",
        ),
        (
            "question,answer1,answer2,wrong,explanation\nWhy?,,,No,So.\n",
            "deck.csv: row 2: answer1: missing answer",
        ),
        (
            "question,answer1,answer2,wrong,explanation\nWhy?,Yes,yes,No,So.\n",
            "deck.csv: row 2: answer2: duplicate option: 'yes' repeats right option 1",
        ),
        (
            "question,answer,answer1,wrong,explanation\n",
            "deck.csv: row 1: answer: use one 'answer' column or columns answer1, answer2, …",
        ),
    ],
    ids=["repeated-id", "id-not-a-slug", "no-right-option", "repeated-right-option", "both"],
)
def test_mistakes_in_the_new_columns_are_named(text: str, expected: str) -> None:
    """Each mistake names the row and the author's column."""
    found = problems(text)

    assert len(found) == 1, found
    assert found[0].startswith(expected), found
