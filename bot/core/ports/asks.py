"""Asks and answers."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Protocol

from bot.core.model import (
    Answer,
    Ask,
    Card,
    PassState,
    PeriodKeys,
    Player,
    Tally,
    UserStats,
)


class AskStore(Protocol):
    async def pass_state(self, chat_id: int, deck_id: str) -> PassState: ...

    async def get_ask(self, ask_id: int) -> Ask | None: ...

    async def open_quiz_ask(self, chat_id: int, thread_id: int | None, now: datetime) -> Ask | None:
        """The newest open `/quiz` question (not a round's or a daily one) in the chat's
        thread (`None`: outside forum topics), if any."""
        ...

    async def get_answer(self, ask_id: int, user_id: int) -> Answer | None: ...

    async def record_answer(
        self,
        ask: Ask,
        player: Player,
        position: int,
        correct: bool,
        now: datetime,
        *,
        periods: PeriodKeys,
        review: Callable[[Card | None], Card | None] | None = None,
        picked: frozenset[int] | None = None,
    ) -> Answer | None:
        """A group answer, committed on return (no transaction: the hot path); None when the
        player had answered this ask before. `review` maps the learner's card of the question
        (as the answer's statement returned it) to the card to save, if any: saved right
        after the answer under the same write lock (a crash in between loses only that
        card's update; the press itself is logged by the answer's statement)."""
        ...

    async def answer_count(self, ask_id: int) -> int: ...

    async def tally(self, ask_id: int) -> Tally: ...

    async def user_stats(self, chat_id: int, user_id: int) -> UserStats: ...

    async def due_asks(self, now: datetime, limit: int) -> list[Ask]:
        """Open asks whose deadline has passed, oldest deadline first. Only posted ones: a
        question's time runs from when members can see it (one never posted is closed when
        its post is given up)."""
        ...

    async def round_asks(self, round_id: int) -> list[Ask]: ...

    async def set_ask_message(
        self, ask_id: int, message_id: int, posted_at: datetime | None = None
    ) -> None: ...


class AnsweredAsks(Protocol):
    async def answered_asks_after(
        self, answer_id: int | None, limit: int
    ) -> tuple[int | None, list[Ask]]:
        """The asks with answers whose id is above `answer_id` (None: only the newest id, so
        that a new reader starts from now), and the highest answer id read."""
        ...


class SelectionStore(Protocol):
    """What a member has picked on a "choose N" question before submitting."""

    async def toggle_pick(
        self, ask_id: int, user_id: int, position: int, now: datetime
    ) -> frozenset[int]:
        """Pick the option at `position`, or unpick it when it was picked; the picks now."""
        ...

    async def picks_of(self, ask_id: int, user_id: int) -> frozenset[int]: ...
