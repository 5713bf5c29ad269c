"""`python -m bot item-report` end to end: settings, a real database file, deck files, outputs."""

from __future__ import annotations

import asyncio
import csv
import io
import shutil
from pathlib import Path

import pytest
import yaml

from bot.cli.main import main
from storage.sqlite import SqliteStore
from tests.bot.render.html_page import Page
from tests.core.items.simulated import DECK_ID, ITEMS, sim_deck, simulate

SCRIPT_TEXT = "<script>alert('owned')</script> Which option is right?"


async def _simulated(path: Path) -> None:
    store = await SqliteStore.open(path)
    try:
        await simulate(store)
    finally:
        await store.close()


@pytest.fixture(scope="module")
def sim_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The simulated learners' database (tests/core/items/simulated.py), written once."""
    path = tmp_path_factory.mktemp("cli") / "quizbot.sqlite3"
    asyncio.run(_simulated(path))
    return path


@pytest.fixture
def setup(sim_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The environment an operator sets: QUIZBOT_DATABASE and QUIZBOT_CONTENT_DIR, run from
    an empty folder (no .env); the deck file has a question text with a <script> tag."""
    content = tmp_path / "content"
    content.mkdir()
    deck = sim_deck(SCRIPT_TEXT).model_dump(exclude_none=True)
    (content / "sim.yaml").write_text(yaml.safe_dump(deck, sort_keys=False), encoding="utf-8")
    monkeypatch.setenv("QUIZBOT_DATABASE", str(sim_db))
    monkeypatch.setenv("QUIZBOT_CONTENT_DIR", str(content))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_item_report_prints_the_table_and_writes_csv_and_html(
    setup: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The table on stdout puts the flagged questions first; the CSV has a row and the HTML
    an svg chart per question of the deck, the <script> text escaped."""
    out_csv, out_html = setup / "items.csv", setup / "items.html"
    code = main(["item-report", "--deck", DECK_ID, "--csv", str(out_csv), "--html", str(out_html)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    lines = captured.out.splitlines()
    assert lines[0] == "Item analysis: Simulated deck (sim)"
    table = lines[lines.index(next(line for line in lines if line.startswith("question "))) :]
    order = [line.split()[0] for line in table[1:9]]
    assert order == ["miskeyed", "easy", "dead", "good-1", "good-2", "good-3", "good-4", "unasked"]
    assert "check the key" in table[1]
    assert "Answer time runs from asked_at" in captured.out
    assert f"wrote {out_csv}" in captured.err
    rows = list(csv.DictReader(io.StringIO(out_csv.read_text(encoding="utf-8"))))
    assert len(rows) == 8
    assert {row["question_id"]: row["answers"] for row in rows}["unasked"] == "0"
    html = out_html.read_text(encoding="utf-8")
    page = Page()
    page.feed(html)
    assert page.tags.count("svg") == 8
    assert "script" not in page.tags
    assert "&lt;script&gt;alert(&#x27;owned&#x27;)&lt;/script&gt;" in html


def test_item_report_without_a_deck_covers_every_deck(
    setup: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With no --deck every deck with a file or answers is reported: here the one."""
    assert main(["item-report"]) == 0
    out = capsys.readouterr().out
    assert out.count("Item analysis: ") == 1
    assert "good-1" in out


def test_item_report_of_an_unknown_deck_fails_with_a_message(
    setup: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An id with no deck file and no answers exits 2 naming it, printing no table."""
    assert main(["item-report", "--deck", "nope"]) == 2
    captured = capsys.readouterr()
    assert "unknown deck 'nope'" in captured.err
    assert captured.out == ""


def test_item_report_without_a_database_creates_none(
    setup: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A QUIZBOT_DATABASE that does not exist is an error; no empty database is made."""
    missing = setup / "missing" / "quizbot.sqlite3"
    monkeypatch.setenv("QUIZBOT_DATABASE", str(missing))
    assert main(["item-report"]) == 2
    assert "no database at" in capsys.readouterr().err
    assert not missing.parent.exists()


def test_item_report_after_calibrate_shows_b_a_c_and_the_fit_date(
    setup: Path, sim_db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`calibrate` then `item-report` (on a copy of the shared database): every answered
    question has a difficulty (the easy one the lowest), the never-asked one says "prior", the
    header dates the fit."""
    copy = setup / "calibrated.sqlite3"
    shutil.copyfile(sim_db, copy)
    monkeypatch.setenv("QUIZBOT_DATABASE", str(copy))
    assert main(["calibrate", "--deck", DECK_ID]) == 0
    assert f"{DECK_ID}: 7 fitted, 1 on priors" in capsys.readouterr().out
    assert main(["item-report", "--deck", DECK_ID]) == 0
    out = capsys.readouterr().out
    assert "b, a and c fitted" in " ".join(out.splitlines())
    header = next(line for line in out.splitlines() if line.startswith("question "))
    assert header.split()[5:8] == ["b", "a", "c"]
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line[:1].isalpha()}
    assert rows["unasked"][5:8] == ["prior", "—", "—"]
    difficulty = {qid: float(rows[qid][5]) for qid in ITEMS}
    assert min(difficulty, key=difficulty.__getitem__) == "easy"
