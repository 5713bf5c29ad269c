"""The storage port of the item analysis (re-exported by `bot.core.ports`).

Times are aware UTC datetimes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol


@dataclass(frozen=True)
class FirstAnswer:
    """A user's first answer to a question of a deck, over all chats and asks (item analysis)."""

    user_id: int
    question_id: str
    # The ask's option order (option index 0 is the right answer) and the position chosen.
    option_order: tuple[int, ...]
    position: int
    correct: bool
    asked_at: datetime
    # When the question was posted, where the outbox recorded it; None: timed from asked_at.
    posted_at: datetime | None
    answered_at: datetime
    # A "choose N" answer: every position submitted (`position` is the first of them).
    picked: frozenset[int] | None = None


class ItemStore(Protocol):
    """Reads for the item analysis (`python -m bot item-report`)."""

    async def answered_decks(self) -> list[str]:
        """The ids of the decks with at least one stored answer, sorted."""
        ...

    async def first_answers(self, deck_id: str) -> list[FirstAnswer]:
        """Each user's first answer (earliest, then the lowest id) to each question of the
        deck, across all chats and asks."""
        ...

    async def open_reports(self, deck_id: str) -> dict[str, int]:
        """Open learner reports per question id; empty while the store keeps no reports."""
        ...
