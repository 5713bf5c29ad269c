"""A running playground on a small deck, in this process, with members who answer at once."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import yaml

from bot.config import Settings
from bot.playground.members import Pace
from bot.playground.session import Playground, playground

DECK_ID = "tiny"


def deck_yaml(
    deck_id: str = DECK_ID, title: str = "Tiny deck", questions: int = 3, wrong: int = 3
) -> str:
    """A deck of `questions` questions (`Which is right {i}?`, the right one `Right {i}`), each
    with `wrong` wrong options (valid with 1 to 7)."""
    return yaml.safe_dump(
        {
            "id": deck_id,
            "title": title,
            "source": "Hand-written",
            "questions": [
                {
                    "id": f"q{i}",
                    "topic": "basics",
                    "text": f"Which is right {i}?",
                    "answer": f"Right {i}",
                    "wrong": [f"Wrong {i}{letter}" for letter in "abcdefgh"[:wrong]],
                    "explanation": f"Right {i} is right.",
                }
                for i in range(questions)
            ],
        },
        sort_keys=False,
    )


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    decks = tmp_path / "decks"
    decks.mkdir()
    (decks / "tiny.yaml").write_text(deck_yaml(), encoding="utf-8")
    return Settings(
        _env_file=None,
        database=str(tmp_path / "data" / "quizbot.sqlite3"),
        content_dir=decks,
        default_deck=DECK_ID,
    )


@pytest.fixture
async def session(settings: Settings, tmp_path: Path) -> AsyncIterator[Playground]:
    async with playground(settings, tmp_path / "playground") as started:
        started.set_pace(Pace(accuracy=1.0, fastest=0.0, slowest=0.05))
        yield started
