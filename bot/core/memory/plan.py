"""Which question a review session asks next (used by rounds, answers and `/review`)."""

from __future__ import annotations

from datetime import datetime

from bot.core.model import Round
from bot.core.ports import AskStore, MemoryStore

MAX_REVIEW = 40  # due cards plus the ones that come back: a session never asks more


async def next_review_question(
    memory: MemoryStore, asks: AskStore, session: Round, deck_id: str, now: datetime
) -> str | None:
    """The question the session asks next, or None when it is done.

    First the due cards not asked yet in this session, the longest overdue first; then, once,
    each card the learner missed in this session."""
    asked = await asks.round_asks(session.id)
    if len(asked) >= session.size:
        return None
    seen = {ask.question_id for ask in asked}
    for card in await memory.due_cards(session.started_by, deck_id, now, MAX_REVIEW):
        if card.question_id not in seen:
            return card.question_id
    times: dict[str, int] = {}
    for ask in asked:
        times[ask.question_id] = times.get(ask.question_id, 0) + 1
    for ask in asked:
        if times[ask.question_id] == 1:
            answer = await asks.get_answer(ask.id, session.started_by)
            if answer is not None and not answer.correct:
                times[ask.question_id] = 2  # it comes back once
                return ask.question_id
    return None
