"""`python -m bot preview-deck DECK [-o preview.html]`: the deck as learners will see it, in one
static page, with the `check-decks --strict` findings next to the questions they concern.

Exit codes: 0 written; 2 the deck does not load (its problems are printed, nothing written)."""

from __future__ import annotations

import sys
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

from bot.render.preview import preview_page
from content.checks import strict_problems
from content.loader import DeckError, load_deck


def preview(deck_path: Path, output: Path | None) -> int:
    try:
        deck = load_deck(deck_path)
    except DeckError as error:
        print(f"quizbot: the deck has problems:\n{error}", file=sys.stderr)
        return 2
    findings: dict[str, list[str]] = defaultdict(list)
    for problem in strict_problems(deck_path.parent):
        if problem.file == deck_path.name:
            findings[problem.question_id].append(f"{problem.field}: {problem.message}")
    images = {
        name: (deck_path.parent / name).read_bytes()
        for question in deck.questions
        for name in (question.image, question.explanation_image)
        if name is not None
    }
    page = preview_page(deck, deck_path.name, images, findings, datetime.now(UTC))
    target = output or deck_path.with_suffix(".preview.html")
    target.write_text(page, encoding="utf-8")
    count = sum(len(found) for found in findings.values())
    print(f"wrote {target}: {len(deck.questions)} questions, {count} check-decks findings")
    return 0
