"""CSV import: spreadsheet exports become loadable decks; mistakes are named by row and column."""

from pathlib import Path

import pytest
import yaml

from bot.cli.main import main
from content.formats.practice_test import dump_yaml
from content.formats.spreadsheet import CsvImportError, deck_data, parse_csv_deck, read_csv_deck
from content.loader import load_deck
from content.models import Deck

HEADER = "question,answer,wrong,explanation,topic,source"
GOOD = (
    "\ufeff" + HEADER + "\r\n"
    'What links GPUs in a node?,NVLink,"PCIe\r\nEthernet\r\nInfiniBand",'
    '"NVLink is the intra-node link.\r\nIt is fast.",networking,https://example.org/nvlink\r\n'
    "Which library runs collectives?,NCCL,MPI|Gloo,NCCL runs them on GPUs.,,\r\n"
)


def parse(text: str, delimiter: str | None = None) -> Deck:
    """The deck imported from CSV `text`, as file deck.csv."""
    return parse_csv_deck(
        text, "deck.csv", deck_id="deck", title="Deck", source="test", delimiter=delimiter
    )


def problems(text: str) -> list[str]:
    """The problems importing CSV `text` raises, as strings."""
    with pytest.raises(CsvImportError) as caught:
        parse(text)
    return [str(problem) for problem in caught.value.problems]


def test_spreadsheet_export_with_bom_crlf_and_multiline_cells() -> None:
    """BOM, CRLF, quoted multi-line cells, newline- and |-separated wrong options all import."""
    first, second = parse(GOOD).questions

    assert first.text == "What links GPUs in a node?"
    assert first.wrong == ["PCIe", "Ethernet", "InfiniBand"]
    assert first.explanation == "NVLink is the intra-node link.\nIt is fast."
    assert (first.topic, first.source) == ("networking", "https://example.org/nvlink")
    assert second.wrong == ["MPI", "Gloo"]
    assert (second.topic, second.source) == ("general", None)


def test_numbered_wrong_columns_in_any_order_and_semicolons() -> None:
    """wrong1..wrongN columns are read in number order, empty ones skipped; `;` is detected."""
    text = (
        "Wrong 2;Question;Answer;wrong_1;wrong3;Explanation\n"
        "Gloo;Which library runs collectives?;NCCL;MPI;;NCCL runs them.\n"
    )

    (question,) = parse(text).questions

    assert question.wrong == ["MPI", "Gloo"]
    assert question.topic == "general"


def test_a_single_numbered_wrong_column_is_not_split() -> None:
    """With wrong1..wrongN columns a cell holds one option, even with `|` in it."""
    text = "question,answer,wrong1,explanation\nWhich pipe?,Unix,A | B,Pipes.\n"

    assert parse(text).questions[0].wrong == ["A | B"]


def test_tab_delimiter_and_explicit_delimiter() -> None:
    """Tabs are detected too, and an explicit delimiter overrides the guess."""
    tabbed = "question\tanswer\twrong\texplanation\nWhy?\tBecause\tNo\tSo.\n"
    pipes_in_header = "question;answer;wrong;explanation\nWhy, then?;Because;No;So.\n"

    assert parse(tabbed).questions[0].answer == "Because"
    assert parse(pipes_in_header, delimiter=";").questions[0].text == "Why, then?"


def test_ids_are_unique_slugs_and_blank_rows_are_skipped() -> None:
    """Ids are slugs of the question's first words, made unique; empty rows are ignored."""
    text = (
        "question,answer,wrong,explanation\n"
        "What does NCCL do?,Collectives,Storage,E.\n"
        ",,,\n"
        "\n"
        "What does NCCL do?,Collectives on GPUs,Storage,E.\n"
    )

    assert [q.id for q in parse(text).questions] == ["nccl", "nccl-2"]


def test_imported_yaml_loads_with_the_real_models(tmp_path: Path) -> None:
    """The YAML written for an import loads with load_deck into the same deck."""
    deck = parse(GOOD)
    path = tmp_path / "deck.yaml"
    path.write_text(dump_yaml(deck_data(deck)), encoding="utf-8")

    assert load_deck(path) == deck
    assert "note" not in path.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "question,answer,wrong,explanation\nWhy?,,No,So.\n",
            ["deck.csv: row 2: answer: missing answer"],
        ),
        (
            "question,answer,wrong,explanation\n  ,Yes,No,So.\n",
            ["deck.csv: row 2: question: empty question"],
        ),
        (
            "question,answer,wrong,explanation\nWhy?,Yes,,So.\n",
            ["deck.csv: row 2: wrong: needs at least 1 wrong option, found none"],
        ),
        (
            "question,answer,wrong1,wrong2,explanation\nWhy?,Yes,,,So.\n",
            ["deck.csv: row 2: wrong1: needs at least 1 wrong option, found none"],
        ),
        (
            "question,answer,wrong,explanation\nWhy?,Yes,No|yes ,So.\n",
            ["deck.csv: row 2: wrong: duplicate option: 'yes' repeats the answer"],
        ),
        (
            "question,answer,wrong1,wrong2,explanation\nWhy?,Yes,No,NO,So.\n",
            ["deck.csv: row 2: wrong2: duplicate option: 'NO' repeats wrong option 1"],
        ),
        (
            "question,answer,wrong,explanation\nWhy?,Yes,No,So.,extra\n",
            ["deck.csv: row 2: -: has 5 cells, the header has 4; check for a stray"],
        ),
        (
            "question,answer,wrong,explanation\nWhy?,Yes,No\n",
            ["deck.csv: row 2: -: has 3 cells, the header has 4"],
        ),
        (
            "question,answer,wrong,explanation\nWhy?,Yes,No,\n",
            ["deck.csv: row 2: explanation: missing explanation"],
        ),
        (
            "question,answer,wrong,explanation\nWhy?,Yes," + "|".join("abcdefgh") + ",So.\n",
            ["deck.csv: row 2: wrong: needs 1-7 wrong options (2-8 options in total), found 8"],
        ),
        (
            "question,answer,wrong,explanation,note\nWhy?,Yes,No,So.," + "n" * 601 + "\n",
            ["deck.csv: row 2: note: String should have at most 600 characters"],
        ),
        (
            "question,answer,wrong,explanation,hint\nWhy?,Yes,No,So.,Think\n",
            ["deck.csv: row 1: hint: unknown column; expected question, answer, wrong"],
        ),
        (
            "question,answer,wrong,explanation,Answer\n",
            ["deck.csv: row 1: Answer: the column appears twice (also column 2)"],
        ),
        (
            "question,wrong,explanation\nWhy?,No,So.\n",
            ["deck.csv: row 1: answer: required column is missing"],
        ),
        (
            "question,answer,explanation\nWhy?,Yes,So.\n",
            ["deck.csv: row 1: wrong: required column is missing (or give columns wrong1"],
        ),
        (
            "question,answer,wrong,wrong1,explanation\n",
            ["deck.csv: row 1: wrong: use one 'wrong' column or columns wrong1, wrong2, …"],
        ),
        (
            "question,answer,,wrong,explanation\n",
            ["deck.csv: row 1: column 3: the header cell is empty"],
        ),
        ("", ["deck.csv: -: -: no header row: the file is empty"]),
        (
            "question,answer,wrong,explanation\n\n",
            ["deck.csv: -: -: no questions below the header row"],
        ),
        (
            'question,answer,wrong,explanation\nWhy?,"Yes,No,So.\n',
            ["deck.csv: line 2: -: unexpected end of data: check the quoting"],
        ),
    ],
    ids=[
        "missing-answer",
        "empty-question",
        "no-wrong-option",
        "no-numbered-wrong-option",
        "option-repeats-answer",
        "duplicate-wrong-options",
        "extra-cell",
        "missing-cell",
        "missing-explanation",
        "too-many-wrong-options",
        "note-too-long",
        "unknown-header",
        "duplicate-header",
        "missing-answer-column",
        "missing-wrong-column",
        "both-wrong-layouts",
        "empty-header-cell",
        "empty-file",
        "header-only",
        "unclosed-quote",
    ],
)
def test_broken_file_is_reported_by_row_and_column(text: str, expected: list[str]) -> None:
    """Each mistake names the file, the spreadsheet row (header = 1) and the column."""
    found = problems(text)

    assert len(found) == len(expected), found
    for got, want in zip(found, expected, strict=True):
        assert got.startswith(want), got


def test_every_broken_row_is_reported() -> None:
    """All broken rows are reported in one go, numbered as the spreadsheet numbers them."""
    text = "question,answer,wrong,explanation\nWhy?,,No,So.\nHow?,Yes,No,So.\n,Yes,No,So.\n"

    assert problems(text) == [
        "deck.csv: row 2: answer: missing answer",
        "deck.csv: row 4: question: empty question",
    ]


def test_read_csv_deck_defaults_and_rejects_non_utf8(tmp_path: Path) -> None:
    """The deck id and title come from the file name; a non-UTF-8 file is one problem."""
    good = tmp_path / "My Deck.csv"
    good.write_text(GOOD, encoding="utf-8")
    latin = tmp_path / "latin.csv"
    latin.write_bytes("question,answer,wrong,explanation\nWarum?,Ja,Nein,Weiß.\n".encode("latin-1"))

    deck = read_csv_deck(good)

    assert (deck.id, deck.title, deck.source) == ("my-deck", "My Deck", "imported from My Deck.csv")
    with pytest.raises(CsvImportError, match=r"latin\.csv: -: -: not UTF-8 text"):
        read_csv_deck(latin)


def test_cli_imports_csv_with_id_and_title(tmp_path: Path) -> None:
    """`import-deck FILE.csv -o OUT --id --title` writes a deck that loads."""
    source = tmp_path / "export.csv"
    source.write_text(GOOD, encoding="utf-8")
    target = tmp_path / "out.yaml"

    code = main(["import-deck", str(source), "-o", str(target), "--id", "nv", "--title", "NV"])

    assert code == 0
    deck = load_deck(target)
    assert (deck.id, deck.title, len(deck.questions)) == ("nv", "NV", 2)


def test_cli_writes_nothing_for_a_broken_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A CSV with any mistake exits 1, lists the problems on stderr and creates no file."""
    source = tmp_path / "broken.csv"
    source.write_text("question,answer,wrong,explanation\nWhy?,,No,So.\n", encoding="utf-8")
    target = tmp_path / "out.yaml"

    assert main(["import-deck", str(source), "-o", str(target)]) == 1
    assert not target.exists()
    err = capsys.readouterr().err
    assert "broken.csv: row 2: answer: missing answer" in err
    assert "nothing written" in err


def test_cli_still_imports_practice_tests_by_extension(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A non-CSV file goes to the practice-test importer; --title overrides its title."""
    source = tmp_path / "test.txt"
    source.write_text("Sample\nQuestion 1\nWhy?\nAccepted Answer\nYes\nAnswer\nSo.\n")

    assert main(["import-deck", str(source), "--title", "Renamed"]) == 0
    data = yaml.safe_load(capsys.readouterr().out)
    assert (data["id"], data["title"], data["questions"][0]["wrong"]) == ("sample", "Renamed", [])


@pytest.mark.parametrize("name", ["semicolon", ";"])
def test_cli_delimiter_option_overrides_the_guess(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """`--delimiter semicolon`, or `;`, names the cell separator instead of the guess."""
    source = tmp_path / "semi.csv"
    source.write_text("question;answer;wrong;explanation\nWhy, then?;Yes;No;So.\n")

    assert main(["import-deck", str(source), "--delimiter", name]) == 0
    assert yaml.safe_load(capsys.readouterr().out)["questions"][0]["text"] == "Why, then?"
