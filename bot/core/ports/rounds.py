"""Rounds."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from bot.core.model import (
    Round,
    RoundQuestion,
    RoundScore,
)


class RoundStore(Protocol):
    async def get_round(self, round_id: int) -> Round | None: ...

    async def running_round(self, chat_id: int) -> Round | None: ...

    async def round_asked(self, round_id: int) -> int:
        """How many questions the round has asked."""
        ...

    async def round_questions(self, round_id: int, user_id: int) -> list[RoundQuestion]: ...

    async def round_scores(self, round_id: int, limit: int) -> list[RoundScore]: ...

    async def round_last_answer_at(self, round_id: int) -> datetime | None: ...
