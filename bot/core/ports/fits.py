"""The storage port of each learner's fitted memory parameters (re-exported by
`bot.core.ports`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.core.model.memory import Learned, MemoryFit


@dataclass(frozen=True)
class FitCandidate:
    """A learner with enough presses in a deck, and how many they have."""

    user_id: int
    deck_id: str
    reviews: int


class MemoryFitStore(Protocol):
    async def fit_candidates(self, min_reviews: int, growth: float) -> list[FitCandidate]:
        """The learners with `min_reviews` presses or more in a deck who were never fitted
        there, or whose presses grew by `growth` (0.25: a quarter) since their last fit."""
        ...

    async def presses(self, user_id: int, deck_id: str) -> list[Learned]:
        """Every first press the learner made on the deck's questions, oldest first."""
        ...

    async def save_memory_fit(self, fit: MemoryFit) -> None:
        """The learner's fit in its deck, replacing the one before."""
        ...

    async def memory_fit(self, user_id: int, deck_id: str) -> MemoryFit | None:
        """The learner's last fit in the deck (one read by its key); None: never fitted."""
        ...

    async def review_count(self, user_id: int, deck_id: str) -> int:
        """The learner's presses in the deck."""
        ...

    async def last_memory_fit(self) -> datetime | None:
        """When the latest fit of anyone was made; None before the first."""
        ...
