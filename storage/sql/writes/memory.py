"""The learner-memory statements of `Writes`, on a connection whose write lock the caller holds."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from bot.core.model import Card, LearnSource
from storage.sql.conn import Conn, Row
from storage.sql.rows import from_ms, ms_or_none, optional_ms, to_ms

CARD_COLUMNS = (
    "user_id, deck_id, question_id, due, stability, difficulty, state, last_review, reviews, lapses"
)
CARD = f"SELECT {CARD_COLUMNS} FROM cards WHERE user_id = ? AND deck_id = ? AND question_id = ?"
SAVE_CARD = (
    f"INSERT INTO cards ({CARD_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (user_id, deck_id, question_id) DO UPDATE SET due = excluded.due, "
    "stability = excluded.stability, difficulty = excluded.difficulty, state = excluded.state, "
    "last_review = excluded.last_review, reviews = excluded.reviews, lapses = excluded.lapses"
)
_LOG = (
    "INSERT INTO learning_log "
    "(user_id, deck_id, question_id, correct, at, duration_ms, source) "
    "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
)


def _card(user_id: int, deck_id: str, question_id: str, *state: Any) -> Card:
    """A card from its key and the columns after it in CARD_COLUMNS order."""
    due, stability, difficulty, fsrs_state, last_review, reviews, lapses = state
    return Card(
        user_id=int(user_id),
        deck_id=str(deck_id),
        question_id=str(question_id),
        due=from_ms(int(due)),
        stability=float(stability),
        difficulty=float(difficulty),
        state=int(fsrs_state),
        last_review=optional_ms(last_review),
        reviews=int(reviews),
        lapses=int(lapses),
    )


def card_of(row: Row) -> Card:
    return _card(*tuple(row))


def card_from_json(user_id: int, deck_id: str, question_id: str, value: str | None) -> Card | None:
    """The card `_INSERT_ANSWER` returns as a JSON array (see storage.sql.writes)."""
    return None if value is None else _card(user_id, deck_id, question_id, *json.loads(value))


def card_params(card: Card) -> tuple[object, ...]:
    return (
        card.user_id,
        card.deck_id,
        card.question_id,
        to_ms(card.due),
        card.stability,
        card.difficulty,
        card.state,
        ms_or_none(card.last_review),
        card.reviews,
        card.lapses,
    )


class MemoryWrites:
    """Mixed into `SqlWrites`."""

    _conn: Conn

    async def card(self, user_id: int, deck_id: str, question_id: str) -> Card | None:
        row = await self._conn.fetch_one(CARD, (user_id, deck_id, question_id))
        return None if row is None else card_of(row)

    async def save_card(self, card: Card) -> None:
        await self._conn.execute(SAVE_CARD, card_params(card))

    async def log_learning(
        self,
        user_id: int,
        deck_id: str,
        question_id: str,
        correct: bool,
        at: datetime,
        duration_ms: int | None,
        source: LearnSource,
    ) -> None:
        await self._conn.execute(
            _LOG, (user_id, deck_id, question_id, int(correct), to_ms(at), duration_ms, source)
        )
