"""The playground's clock: the real time plus however far the person has moved it forward."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


class MovableClock:
    """A `bot.core.clock.Clock` that only ever moves forward: real time plus an offset."""

    def __init__(self) -> None:
        self._offset = timedelta(0)

    def now(self) -> datetime:
        return datetime.now(UTC) + self._offset

    @property
    def offset(self) -> timedelta:
        return self._offset

    def advance(self, by: timedelta) -> None:
        """Move the time forward by `by` (never back: the bot's deadlines only follow it)."""
        if by < timedelta(0):
            raise ValueError("the playground's clock only moves forward")
        self._offset += by
