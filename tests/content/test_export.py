"""The writers of export-deck: CSV, GIFT and Aiken files as their readers (and Moodle) read them,
what each leaves out, and the format chosen by name or file name."""

import csv
import io
from pathlib import Path

import pytest

from content.formats.aiken import parse_aiken
from content.formats.export import UnknownFormatError, format_of
from content.formats.export.aiken import write_aiken
from content.formats.export.gift import write_gift
from content.formats.export.spreadsheet import write_csv
from content.formats.gift import parse_gift
from content.formats.spreadsheet import parse_csv_deck
from content.models import Deck
from tests.content.builders import deck, mixed_questions, question

NAMES = ("deck", "Sample", "Hand-written")


def mixed_deck() -> Deck:
    """The builders' mixed questions as a deck."""
    return Deck.model_validate(deck(*mixed_questions()))


def test_csv_has_the_importers_columns_one_option_a_cell() -> None:
    """id, topic, question, answer1…N (several right), wrong1…N, explanation, source, note."""
    content = write_csv(mixed_deck()).content

    assert content.startswith("\ufeff".encode())
    assert b"\r\n" in content
    rows = list(csv.reader(io.StringIO(content.decode("utf-8-sig"), newline="")))
    assert rows[0] == [
        "id", "topic", "question", "answer1", "answer2", "wrong1", "wrong2", "wrong3",
        "explanation", "source", "note",
    ]  # fmt: skip
    assert rows[2][3:8] == ["all-reduce", "broadcast", "malloc", "fork", ""]


def test_csv_of_one_answer_questions_has_one_answer_column() -> None:
    """A deck without "choose N" questions gets a single `answer` column."""
    header = write_csv(Deck.model_validate(deck())).content.decode("utf-8-sig").splitlines()[0]

    assert header == "id,topic,question,answer,wrong1,wrong2,wrong3,explanation,source,note"


def test_csv_reads_back_as_the_same_questions() -> None:
    """The CSV importer gives back every field CSV holds, ids included."""
    original = mixed_deck()
    text = write_csv(original).content.decode("utf-8")

    back = parse_csv_deck(text, "deck.csv", deck_id="deck", title="Sample", source="Hand-written")

    assert back.questions == original.questions


def test_gift_escapes_weights_categories_and_plain_text() -> None:
    """Markup characters are escaped, several right options weighed, topics made categories."""
    text = write_gift(mixed_deck()).content.decode()

    assert "$CATEGORY: networking\n" in text
    assert "$CATEGORY: nccl//collectives\n" in text
    assert (
        "::nvlink-escapes::[plain]"
        "Which link \\{inside\\} a node\\: A\\=B \\~ C \\#1, or \\\\ D? {\n"
        "\t=NVLink\\: 900 GB/s\n"
        "\t~PCIe \\= slower\n"
        "\t~\\~Ethernet\n"
        "\t~\\#InfiniBand\n"
        "\t####[plain]NVLink \\{is\\} the intra-node link; see \\#3.\n"
        "}\n"
    ) in text
    assert "\t~%50%all-reduce\n\t~%50%broadcast\n\t~%-100%malloc\n" in text
    assert "[plain]Which two are NCCL collectives?\\nChoose two. {" in text


def test_gift_reads_back_as_the_same_questions() -> None:
    """The GIFT importer gives back ids, topics, texts, options and right ones, explanations."""
    original = mixed_deck()

    back = parse_gift(write_gift(original).content.decode(), "deck.gift", deck=NAMES).deck()

    held = ("id", "topic", "text", "answer", "answers", "wrong", "explanation")
    for got, want in zip(back.questions, original.questions, strict=True):
        assert got.model_dump(include=set(held)) == want.model_dump(include=set(held))


def test_gift_weights_of_three_right_options_and_options_that_look_like_markup() -> None:
    """Three right options weigh 33.33333% each; `%5%…` and `[html]…` options stay text."""
    raw = question(
        "q1",
        answer=None,
        answers=["A", "%5% more", "[html]tag"],
        wrong=["%10% less"],
    )
    one = question("q2", text="Other?", answer="[plain] yes", wrong=["%5% no"])
    original = Deck.model_validate(deck(raw, one))

    text = write_gift(original).content.decode()
    back = parse_gift(text, "deck.gift", deck=NAMES).deck()

    assert "\t~%33.33333%A\n\t~%33.33333%%5% more\n\t~%33.33333%[plain][html]tag\n" in text
    assert "\t~%0%%5% no\n" in text
    assert [q.options for q in back.questions] == [q.options for q in original.questions]


def test_gift_has_no_place_for_sources_and_notes() -> None:
    """What GIFT drops is said, with how many questions had it."""
    assert write_gift(mixed_deck()).left_out == (
        "`source` of 2 questions",
        "`note` of 1 question",
    )


def test_aiken_leaves_out_what_it_cannot_hold_and_flattens_line_breaks() -> None:
    """Questions with several right options or an option-like text are skipped; lines joined."""
    looks_like_option = question("option-like", text="B. Which one?")
    multi_line = question("lines", text="Which link\njoins GPUs?", answer="NV\nLink")
    original = Deck.model_validate(deck(*mixed_questions(), looks_like_option, multi_line))

    exported = write_aiken(original)

    assert exported.skipped == (
        ("choose-two-collectives", "it has 2 right options; Aiken holds one"),
        ("option-like", "its text would read as an option or an ANSWER: line"),
    )
    assert exported.questions == 3
    text = exported.content.decode()
    aiken = "Which link joins GPUs?\nA. NV Link\nB. PCIe\nC. Ethernet\nD. InfiniBand\nANSWER: A\n"
    assert aiken in text


def test_aiken_reads_back_as_the_same_texts_and_options() -> None:
    """The Aiken importer gives back each held question's text, right option and wrong ones."""
    original = mixed_deck()

    back = parse_aiken(write_aiken(original).content.decode(), "deck.aiken", deck=NAMES)

    held = [q for q in original.questions if q.picks == 1]
    assert [(q["text"], q["answer"], q["wrong"]) for q in back.questions] == [
        (q.text, q.answer, q.wrong) for q in held
    ]


@pytest.mark.parametrize(
    ("name", "named", "expected"),
    [
        ("out.csv", None, "csv"),
        ("OUT.GIFT", None, "gift"),
        ("out.aiken", None, "aiken"),
        ("out.apkg", None, "apkg"),
        ("out.txt", "aiken", "aiken"),
        ("out.csv", "gift", "gift"),
    ],
)
def test_the_format_comes_from_its_name_or_the_file_name(
    name: str, named: str | None, expected: str
) -> None:
    """`--format` wins; else the output's ending, in any case, chooses."""
    assert format_of(Path(name), named) == expected


def test_an_unknown_ending_without_a_format_is_refused() -> None:
    """A file name that says no format, with none named, is an error naming the choices."""
    with pytest.raises(UnknownFormatError, match=r"end it with \.csv, \.gift, \.aiken, \.apkg"):
        format_of(Path("out.txt"))
