"""New answers to open group questions, read from the database, for the live counts.

With replicas, the presses of one question land on every replica; the leader alone keeps its
'👥 N answered' line current, from the answers any replica recorded.
"""

from __future__ import annotations

from typing import Protocol

from bot.core.clock import Clock
from bot.core.model import Ask

# At most this many new answers' questions are read per call (the rest on the next one).
BATCH = 5000


class AnsweredAsks(Protocol):
    async def answered_asks_after(
        self, answer_id: int | None, limit: int
    ) -> tuple[int | None, list[Ask]]:
        """The asks with answers whose id is above `answer_id` (None: only the newest id, so
        that a new reader starts from now), and the highest answer id read."""
        ...


class LiveAnswers:
    def __init__(self, asks: AnsweredAsks, clock: Clock) -> None:
        self._asks = asks
        self._clock = clock
        self._after: int | None = None

    def restart(self) -> None:
        """Read only answers from now on (a replica that has just become the leader)."""
        self._after = None

    async def newly_answered(self) -> list[Ask]:
        """Open, posted, timed questions answered since the last call."""
        self._after, asks = await self._asks.answered_asks_after(self._after, BATCH)
        now = self._clock.now()
        return [
            ask
            for ask in asks
            if not ask.is_closed
            and ask.message_id is not None
            and ask.closes_at is not None
            and ask.closes_at > now
        ]
