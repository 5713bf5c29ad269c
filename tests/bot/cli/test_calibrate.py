"""`python -m bot calibrate` end to end: settings, a real database file, deck files, output."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import yaml

from bot.cli.main import main
from bot.core.model import LearnSource
from storage.sqlite import SqliteStore
from tests.builders import simple_deck
from tests.fakes.clock import FakeClock


async def _logged(path: Path) -> None:
    """40 learners answer q0–q2 of `deck` (q3 never); three answer `gone`, not in the file."""
    store = await SqliteStore.open(path)
    at = FakeClock().now()
    try:
        async with store.transaction() as writes:
            for user in range(40):
                for i in range(3):
                    right = (user * (i + 2)) % 5 < 3
                    await writes.log_learning(
                        user, "deck", f"q{i}", right, at, None, LearnSource.QUIZ
                    )
            for user in range(3):
                await writes.log_learning(user, "deck", "gone", True, at, None, LearnSource.EXAM)
    finally:
        await store.close()


@pytest.fixture
def database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """QUIZBOT_DATABASE with logged answers and QUIZBOT_CONTENT_DIR with the deck's file."""
    path = tmp_path / "quizbot.sqlite3"
    asyncio.run(_logged(path))
    content = tmp_path / "content"
    content.mkdir()
    deck = simple_deck(4).model_dump(exclude_none=True)
    (content / "deck.yaml").write_text(yaml.safe_dump(deck, sort_keys=False), encoding="utf-8")
    monkeypatch.setenv("QUIZBOT_DATABASE", str(path))
    monkeypatch.setenv("QUIZBOT_CONTENT_DIR", str(content))
    monkeypatch.chdir(tmp_path)
    return path


async def _stored(path: Path) -> dict[str, bool]:
    store = await SqliteStore.open(path)
    try:
        return {p.question_id: p.prior_only for p in await store.item_parameters("deck")}
    finally:
        await store.close()


def test_calibrate_fits_stores_and_says_how_many_fall_back_on_priors(
    database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three questions fitted, the never-answered one and the gone one on priors; stored."""
    assert main(["calibrate"]) == 0
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    assert first.startswith("deck: 3 fitted, 2 on priors (few answers); 40 learners, 123 first")
    assert "converged in" in first
    assert "item-report" in out
    stored = asyncio.run(_stored(database))
    assert stored == {"gone": True, "q0": False, "q1": False, "q2": False, "q3": True}


def test_calibrate_one_deck_and_an_unknown_one(
    database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--deck fits only that deck; an id with no file and no answers exits 2 naming it."""
    assert main(["calibrate", "--deck", "deck"]) == 0
    assert capsys.readouterr().out.count("fitted") == 1
    assert main(["calibrate", "--deck", "nope"]) == 2
    captured = capsys.readouterr()
    assert "unknown deck 'nope'" in captured.err
    assert captured.out == ""


def test_calibrate_without_a_database_creates_none(
    database: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A QUIZBOT_DATABASE that does not exist is an error; no empty database is made."""
    missing = database.parent / "missing" / "quizbot.sqlite3"
    monkeypatch.setenv("QUIZBOT_DATABASE", str(missing))
    assert main(["calibrate"]) == 2
    assert "no database at" in capsys.readouterr().err
    assert not missing.parent.exists()


def test_calibrate_a_deck_without_answers_says_there_is_nothing_to_fit(
    database: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A deck file never answered: every question on priors, "nothing to fit yet"."""
    empty = database.parent / "empty.sqlite3"
    asyncio.run(_stored(empty))  # opening creates and migrates it
    monkeypatch.setenv("QUIZBOT_DATABASE", str(empty))
    assert main(["calibrate"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == "deck: 0 fitted, 4 on priors (few answers); 0 learners, 0 first answers; " + (
        "nothing to fit yet"
    )
