"""`import-deck` of GIFT and Aiken files and `export-deck` to every format: the format from the
file name or `--format`, what to fill in said, and a bad file writing nothing."""

import zipfile
from pathlib import Path

import pytest
import yaml

from bot.cli.main import main
from content.loader import load_deck
from tests.content.builders import deck, mixed_questions, question, write

GIFT = "::q1::Which links GPUs? {=NVLink ~PCIe ####It is.}\n\n::q2::Which? {=Yes ~No}\n"
AIKEN = "Which links GPUs?\nA. NVLink\nB. PCIe\nANSWER: A\n"


@pytest.fixture
def deck_file(tmp_path: Path) -> Path:
    """A deck file of the builders' mixed questions."""
    return write(tmp_path / "sample.yaml", deck(*mixed_questions()))


@pytest.mark.parametrize("ending", [".csv", ".gift", ".aiken", ".apkg"])
def test_export_deck_writes_the_format_the_output_name_ends_with(
    deck_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], ending: str
) -> None:
    """Each ending chooses its writer; the summary names the file and how many questions."""
    output = tmp_path / f"out{ending}"

    assert main(["export-deck", str(deck_file), "-o", str(output)]) == 0

    out = capsys.readouterr().out
    assert f"wrote {output}: " in out
    content = output.read_bytes()
    if ending == ".apkg":
        assert "collection.anki2" in zipfile.ZipFile(output).namelist()
    else:
        assert b"What does NCCL stand for?" in content


def test_export_deck_format_option_wins_over_the_name(
    deck_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--format aiken` writes Aiken to a .txt file, listing the questions it leaves out."""
    output = tmp_path / "out.txt"

    assert main(["export-deck", str(deck_file), "-o", str(output), "--format", "aiken"]) == 0

    captured = capsys.readouterr()
    assert "ANSWER: A" in output.read_text()
    assert "sample.yaml: choose-two-collectives: left out: it has 2 right options" in captured.err
    assert "2 questions as aiken, 1 left out" in captured.out
    assert "aiken has no place for: `id` of 2 questions" in captured.out


def test_export_deck_refuses_an_unknown_ending(
    deck_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An output name that says no format, and no `--format`: exit 1, no file."""
    output = tmp_path / "out.txt"

    assert main(["export-deck", str(deck_file), "-o", str(output)]) == 1

    assert not output.exists()
    assert "cannot tell the format" in capsys.readouterr().err


def test_export_deck_of_a_broken_deck_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A deck with mistakes: its problems, exit 1, and the file already there left as it was."""
    broken = write(tmp_path / "broken.yaml", deck(question("q1", wrong=[])))
    output = tmp_path / "out.gift"
    output.write_text("an older export")

    assert main(["export-deck", str(broken), "-o", str(output)]) == 1

    assert output.read_text() == "an older export"
    err = capsys.readouterr().err
    assert "broken.yaml: q1: wrong: needs 1-7 wrong options" in err
    assert "nothing written" in err
    assert sorted(path.name for path in tmp_path.iterdir()) == ["broken.yaml", "out.gift"]


def test_export_deck_with_nothing_aiken_can_hold_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A deck of "choose N" questions only has nothing for Aiken: exit 1, no file."""
    choose = question("q1", answer=None, answers=["A", "B"], wrong=["C"])
    deck_file = write(tmp_path / "choose.yaml", deck(choose))
    output = tmp_path / "out.aiken"

    assert main(["export-deck", str(deck_file), "-o", str(output)]) == 1

    assert not output.exists()
    assert "no question of" in capsys.readouterr().err


def test_export_deck_will_not_overwrite_the_deck_itself(
    deck_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The output may not be the deck file."""
    before = deck_file.read_text()

    assert main(["export-deck", str(deck_file), "-o", str(deck_file), "--format", "csv"]) == 1

    assert deck_file.read_text() == before
    assert "is the deck file itself" in capsys.readouterr().err


def test_import_deck_reads_gift_by_its_ending_and_says_what_to_fill_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A .gift file is read as GIFT; a question without feedback is named to fill in."""
    source = tmp_path / "quiz.gift"
    source.write_text(GIFT)
    target = tmp_path / "quiz.yaml"

    assert main(["import-deck", str(source), "-o", str(target)]) == 0

    assert "2 questions; fill in `explanation:` of q2" in capsys.readouterr().out
    data = yaml.safe_load(target.read_text())
    assert [q["explanation"] for q in data["questions"]] == ["It is.", ""]


def test_import_deck_reads_aiken_with_the_format_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--format aiken` reads a .txt file as Aiken; topics and explanations are to fill in."""
    source = tmp_path / "quiz.txt"
    source.write_text(AIKEN)

    assert main(["import-deck", str(source), "--format", "aiken", "--id", "quiz"]) == 0

    captured = capsys.readouterr()
    assert yaml.safe_load(captured.out)["questions"][0]["answer"] == "NVLink"
    assert "fill in `topic:` and `explanation:` of every question" in captured.err


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("bad.gift", "Fine? {=Yes ~No}\n\nTrue? {T}\n", "bad.gift: line 3: a true/false question"),
        ("bad.aiken", AIKEN.replace("ANSWER: A", "ANSWER: Z"), "bad.aiken: line 4: ANSWER: must"),
    ],
)
def test_import_deck_of_a_bad_file_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, text: str, expected: str
) -> None:
    """A file with any mistake: `file: line N: what`, exit 1, the output left as it was."""
    source = tmp_path / name
    source.write_text(text)
    target = tmp_path / "out.yaml"
    target.write_text("an earlier import")

    assert main(["import-deck", str(source), "-o", str(target)]) == 1

    assert target.read_text() == "an earlier import"
    err = capsys.readouterr().err
    assert expected in err
    assert "1 problem(s)" in err
    assert "nothing written" in err


def test_exported_gift_imports_into_a_deck_that_loads(deck_file: Path, tmp_path: Path) -> None:
    """export-deck then import-deck, through files: the deck loads with the same questions."""
    gift = tmp_path / "round.gift"
    back = tmp_path / "back.yaml"

    assert main(["export-deck", str(deck_file), "-o", str(gift)]) == 0
    assert main(["import-deck", str(gift), "-o", str(back), "--id", "sample"]) == 0

    original, imported = load_deck(deck_file), load_deck(back)
    assert [(q.id, q.text, q.options) for q in imported.questions] == [
        (q.id, q.text, q.options) for q in original.questions
    ]
