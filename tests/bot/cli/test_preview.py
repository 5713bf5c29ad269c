"""`python -m bot preview-deck`: a page for a deck that loads, nothing for one that does not."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.main import main
from tests.content.builders import deck, question, write


def test_a_deck_that_loads_gets_its_page_with_every_question(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The page holds each question's section; the command says how many it showed."""
    source = write(tmp_path / "mine.yaml", deck(question("q1"), question("q2", text="Other?")))
    page = tmp_path / "out.html"
    assert main(["preview-deck", str(source), "-o", str(page)]) == 0
    text = page.read_text(encoding="utf-8")
    assert 'id="q1"' in text
    assert 'id="q2"' in text
    assert "2 questions" in capsys.readouterr().out


def test_a_broken_deck_prints_its_problems_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Exit 2 with `file: question: field: message`, and no page."""
    source = write(tmp_path / "bad.yaml", deck(question("q1", wrong=[])))
    assert main(["preview-deck", str(source)]) == 2
    assert "bad.yaml: q1: wrong:" in capsys.readouterr().err
    assert not (tmp_path / "bad.preview.html").exists()
