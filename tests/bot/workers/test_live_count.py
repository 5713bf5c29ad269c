"""The live "👥 N answered" counts: a question past its deadline is dropped (its reveal comes
instead), so a long-running bot keeps no count of every question it ever asked."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from bot.core.model import Ask
from bot.workers.live_count import EDIT_INTERVAL_SECONDS, LiveCounts

ASKED = datetime(2026, 12, 1, 9, tzinfo=UTC)


def _ask(ask_id: int, open_for: timedelta) -> Ask:
    return Ask(
        id=ask_id,
        chat_id=-100,
        thread_id=None,
        message_id=ask_id,
        deck_id="d",
        question_id="q",
        pass_no=1,
        option_order=(0, 1),
        asked_at=ASKED,
        closes_at=ASKED + open_for,
        closed_at=None,
    )


async def _no_view(ask_id: int) -> Any:
    return None


def test_a_count_is_dropped_once_its_question_is_past_its_deadline() -> None:
    """Marked while open: due; past the deadline: not due, and forgotten."""
    now = [ASKED.timestamp()]
    counts = LiveCounts(_no_view, bot=None, clock=lambda: now[0])  # type: ignore[arg-type]
    assert counts.answered(_ask(1, timedelta(minutes=5)))
    assert counts.due_chats() == {-100}
    now[0] += 5 * 60 + EDIT_INTERVAL_SECONDS
    assert counts.due_chats() == set()
    assert counts.answered(_ask(1, timedelta(minutes=5)))  # a new count, as for a new question
