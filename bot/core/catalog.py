"""The decks the bot serves, and finding a stored ask's question in them."""

from __future__ import annotations

from collections.abc import Mapping

from bot.core.model import Ask
from content.models import Deck, Question


class Catalog:
    def __init__(self, decks: Mapping[str, Deck], default_id: str | None = None) -> None:
        if not decks:
            raise ValueError("at least one deck is needed")
        self._decks = dict(decks)
        self.default_id = default_id or sorted(decks)[0]
        if self.default_id not in decks:
            raise ValueError(f"unknown default deck {self.default_id!r}")
        self._questions = {
            (deck.id, question.id): question
            for deck in decks.values()
            for question in deck.questions
        }

    @property
    def default(self) -> Deck:
        return self._decks[self.default_id]

    def all(self) -> list[Deck]:
        return [self._decks[key] for key in sorted(self._decks)]

    def get(self, deck_id: str | None) -> Deck | None:
        return None if deck_id is None else self._decks.get(deck_id)

    def title(self, deck_id: str) -> str:
        deck = self._decks.get(deck_id)
        return deck.title if deck is not None else deck_id

    def question(self, deck_id: str, question_id: str) -> Question | None:
        """None when the deck or the question is gone (a deck file changed since)."""
        return self._questions.get((deck_id, question_id))

    def question_of(self, ask: Ask) -> Question | None:
        return self._questions.get((ask.deck_id, ask.question_id))
