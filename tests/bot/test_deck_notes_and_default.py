"""A deck's note is shown when it fits; an unknown default deck stops start-up with its name."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.app import catalog_of
from bot.core.model import Ask, AskOrigin, Tally
from bot.render.group import reveal_message
from bot.render.questions import explanation_message
from bot.render.text import utf16_len
from content.loader import DeckError
from content.models import Deck, Question

NOW = datetime(2026, 12, 3, tzinfo=UTC)


def _question(
    text: str = "Which?", explanation: str = "Because.", note: str | None = None
) -> Question:
    return Question(
        id="q",
        topic="t",
        text=text,
        answer="a",
        wrong=["b", "c", "d"],
        explanation=explanation,
        note=note,
    )


def _ask() -> Ask:
    return Ask(
        id=1,
        chat_id=-5,
        thread_id=None,
        deck_id="d",
        question_id="q",
        pass_no=1,
        option_order=(0, 1, 2, 3),
        asked_at=NOW,
        closes_at=NOW,
        closed_at=NOW,
        message_id=9,
        origin=AskOrigin.QUIZ,
    )


def test_a_note_follows_the_explanation_in_private_and_in_the_group_reveal() -> None:
    """📝 and the escaped note come after 💡 in both messages."""
    question = _question(note="Accurate: <verbs>, not UCX.")
    private = explanation_message(question, _ask(), correct=True)
    reveal = reveal_message(question, _ask(), "Deck", Tally(0, 0, None))
    for text in (private, reveal):
        assert text.index("💡") < text.index("📝")
        assert "&lt;verbs&gt;" in text


def test_a_note_that_would_overflow_the_reveal_is_left_out() -> None:
    """A long question, explanation and note: the reveal drops the note and stays in limits."""
    question = _question(text="Q" * 3000, explanation="E" * 600, note="N" * 590)
    reveal = reveal_message(question, _ask(), "Deck", Tally(0, 0, None))
    assert "📝" not in reveal
    assert utf16_len(reveal) <= 4096


def test_an_unknown_default_deck_is_a_deck_error_naming_the_setting() -> None:
    """QUIZBOT_DEFAULT_DECK naming no deck stops start-up and lists the decks there are."""
    deck = Deck(id="only", title="Only", source="s", questions=[_question()])
    with pytest.raises(DeckError) as raised:
        catalog_of({"only": deck}, "missing")
    assert "QUIZBOT_DEFAULT_DECK" in str(raised.value)
    assert "only" in str(raised.value)
    assert catalog_of({"only": deck}, "only").default is deck
