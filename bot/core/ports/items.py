"""The storage ports of the item analysis and the item calibration (re-exported by
`bot.core.ports`).

Times are aware UTC datetimes.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.core.model import ItemParameters


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


@dataclass(frozen=True)
class FirstResult:
    """A learner's first answer to a question of a deck, over every chat and mode (exams
    included): whether it was right. What the item calibration is fitted on."""

    user_id: int
    question_id: str
    correct: bool


class CalibrationStore(Protocol):
    """The item calibration's reads and its results (`python -m bot calibrate`)."""

    async def calibration_decks(self) -> list[str]:
        """The ids of the decks with at least one logged answer, sorted."""
        ...

    def first_results(self, deck_id: str, learners: int = 50) -> AsyncIterator[list[FirstResult]]:
        """Each learner's first answer to each question of the deck (the earliest logged,
        exams included), in batches of up to `learners` learners' answers, by user id."""
        ...

    async def save_item_parameters(self, deck_id: str, items: Sequence[ItemParameters]) -> None:
        """The deck's fitted parameters, replacing its previous fit in one transaction."""
        ...

    async def item_parameters(self, deck_id: str) -> list[ItemParameters]:
        """The deck's stored parameters, by question id; empty before its first fit."""
        ...

    async def last_calibrated(self) -> datetime | None:
        """When the latest stored fit of any deck was made; None before the first."""
        ...
