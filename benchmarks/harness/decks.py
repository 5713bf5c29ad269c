"""The decks the benchmarks' bot asks from: the shipped decks with only their one-answer text
questions, the kind every benchmark presses (one letter, one answer). A "choose N" question
needs picks and Submit, and a diagram goes out as a photo; both would change what a press
costs between builds, so a figure of one build stays comparable with older ones."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from functools import cache
from pathlib import Path

import yaml

from content.loader import DECK_SUFFIXES, DEFAULT_CONTENT_DIR

_OTHER_KINDS = ("answers", "image", "explanation_image")


@cache
def one_answer_decks() -> Path:
    """A folder (removed when the process exits) holding each shipped deck with only its
    one-answer questions without an image."""
    folder = Path(tempfile.mkdtemp(prefix="quizbot-bench-decks-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    for path in sorted(DEFAULT_CONTENT_DIR.iterdir()):
        if path.suffix not in DECK_SUFFIXES or not path.is_file():
            continue
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        raw["questions"] = [
            q for q in raw["questions"] if not any(key in q for key in _OTHER_KINDS)
        ]
        raw.pop("exam", None)  # its topic weights are the whole deck's
        text = yaml.safe_dump(raw, sort_keys=False, allow_unicode=True)
        (folder / path.name).write_text(text, encoding="utf-8")
    return folder
