"""Reads for the item analysis: each user's first answer per question, and open reports."""

from __future__ import annotations

from bot.core.model import from_mask
from bot.core.ports import FirstAnswer
from storage.sql.base import StoreBase
from storage.sql.conn import Variants, first_value
from storage.sql.rows import from_ms, optional_ms

ANSWERED_DECKS = (
    "SELECT DISTINCT k.deck_id FROM asks AS k "
    "WHERE EXISTS (SELECT 1 FROM answers AS a WHERE a.ask_id = k.id) ORDER BY k.deck_id"
)
# A question's time runs from its post (asks.posted_at; before it was kept, its ask time).
FIRST_ANSWERS = """
WITH ranked AS (
    SELECT a.user_id, k.question_id, k.option_order, a.position, a.picked, a.correct, k.asked_at,
           k.posted_at, a.answered_at,
           row_number() OVER (PARTITION BY a.user_id, k.question_id
                              ORDER BY a.answered_at, a.id) AS nth
    FROM answers AS a JOIN asks AS k ON k.id = a.ask_id
    WHERE k.deck_id = ?1
)
SELECT r.user_id, r.question_id, r.option_order, r.position, r.picked, r.correct, r.asked_at,
       r.posted_at, r.answered_at
FROM ranked AS r
WHERE r.nth = 1
ORDER BY r.question_id, r.user_id
"""
OPEN_REPORTS = (
    "SELECT question_id, count(*) AS n FROM reports WHERE deck_id = ?1 AND status = 'open' "
    "GROUP BY question_id"
)
# Whether the reports table exists: not in a database from before learner reports (schema 5).
HAS_REPORTS = Variants(
    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'reports'",
    "SELECT to_regclass('reports') IS NOT NULL",
)


class ItemQueries(StoreBase):
    async def answered_decks(self) -> list[str]:
        """The ids of the decks with at least one stored answer, sorted."""
        return [str(row["deck_id"]) for row in await self._db.fetch_all(ANSWERED_DECKS)]

    async def first_answers(self, deck_id: str) -> list[FirstAnswer]:
        """Each user's first answer (earliest, then the lowest id) to each question of the
        deck, across all chats and asks; by question id, then user id."""
        found = await self._db.fetch_all(FIRST_ANSWERS, (deck_id,))
        return [
            FirstAnswer(
                user_id=row["user_id"],
                question_id=row["question_id"],
                option_order=tuple(int(part) for part in row["option_order"].split(",")),
                position=row["position"],
                correct=bool(row["correct"]),
                asked_at=from_ms(row["asked_at"]),
                posted_at=optional_ms(row["posted_at"]),
                answered_at=from_ms(row["answered_at"]),
                picked=None if row["picked"] is None else from_mask(int(row["picked"])),
            )
            for row in found
        ]

    async def open_reports(self, deck_id: str) -> dict[str, int]:
        """Open learner reports per question id; empty on a database without reports."""
        if not await first_value(self._db, HAS_REPORTS):
            return {}
        found = await self._db.fetch_all(OPEN_REPORTS, (deck_id,))
        return {str(row["question_id"]): int(row["n"]) for row in found}
