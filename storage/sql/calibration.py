"""The item calibration's reads and results: first answers from the learning log, in batches
of learners, and each deck's fitted item parameters."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from datetime import datetime

from bot.core.model import ItemParameters
from bot.core.ports import FirstResult
from storage.sql.base import StoreBase
from storage.sql.conn import first_value
from storage.sql.rows import from_ms, optional_ms, to_ms

_DECKS = "SELECT DISTINCT deck_id FROM learning_log ORDER BY deck_id"
_LEARNERS = "SELECT DISTINCT user_id FROM learning_log WHERE deck_id = ?1 ORDER BY user_id"
# A learner's first answer to a question: their earliest row for it in the log (the log's key
# has no two rows of one question at one moment). The key leads with user_id: a range of
# learners is one range of it.
_FIRST = """
SELECT ranked.user_id, ranked.question_id, ranked.correct
FROM (
    SELECT user_id, question_id, correct,
           row_number() OVER (PARTITION BY user_id, question_id ORDER BY at) AS nth
    FROM learning_log
    WHERE deck_id = ?1 AND user_id BETWEEN ?2 AND ?3
) AS ranked
WHERE ranked.nth = 1
ORDER BY ranked.user_id, ranked.question_id
"""
_COLUMNS = (
    "deck_id, question_id, difficulty, discrimination, guessing, answers, prior_only, fitted_at"
)
_FORGET_DECK = "DELETE FROM item_parameters WHERE deck_id = ?1"
_SAVE = f"INSERT INTO item_parameters ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
_PARAMETERS = f"SELECT {_COLUMNS} FROM item_parameters WHERE deck_id = ?1 ORDER BY question_id"
_LAST = "SELECT max(fitted_at) FROM item_parameters"


class CalibrationQueries(StoreBase):
    async def calibration_decks(self) -> list[str]:
        """The ids of the decks with at least one logged answer, sorted."""
        return [str(row["deck_id"]) for row in await self._db.fetch_all(_DECKS)]

    async def first_results(
        self, deck_id: str, learners: int = 50
    ) -> AsyncIterator[list[FirstResult]]:
        """Each learner's first answer to each question of the deck, `learners` learners a
        batch, by user id then question id."""
        if learners < 1:
            raise ValueError("a batch needs at least one learner")
        users = [int(row["user_id"]) for row in await self._db.fetch_all(_LEARNERS, (deck_id,))]
        for start in range(0, len(users), learners):
            chunk = users[start : start + learners]
            rows = await self._db.fetch_all(_FIRST, (deck_id, chunk[0], chunk[-1]))
            yield [FirstResult(int(row[0]), str(row[1]), bool(row[2])) for row in rows]

    async def save_item_parameters(self, deck_id: str, items: Sequence[ItemParameters]) -> None:
        """The deck's fitted parameters, replacing its previous fit in one transaction."""
        stray = [item.question_id for item in items if item.deck_id != deck_id]
        if stray:
            raise ValueError(f"parameters of another deck than {deck_id!r}: {stray[:3]}")
        async with self._db.transaction() as conn:
            await conn.execute(_FORGET_DECK, (deck_id,))
            await conn.executemany(
                _SAVE,
                [
                    (
                        item.deck_id,
                        item.question_id,
                        item.difficulty,
                        item.discrimination,
                        item.guessing,
                        item.answers,
                        int(item.prior_only),
                        to_ms(item.fitted_at),
                    )
                    for item in items
                ],
            )

    async def item_parameters(self, deck_id: str) -> list[ItemParameters]:
        """The deck's stored parameters, by question id; empty before its first fit."""
        return [
            ItemParameters(
                deck_id=str(row["deck_id"]),
                question_id=str(row["question_id"]),
                difficulty=float(row["difficulty"]),
                discrimination=float(row["discrimination"]),
                guessing=float(row["guessing"]),
                answers=int(row["answers"]),
                prior_only=bool(row["prior_only"]),
                fitted_at=from_ms(int(row["fitted_at"])),
            )
            for row in await self._db.fetch_all(_PARAMETERS, (deck_id,))
        ]

    async def last_calibrated(self) -> datetime | None:
        """When the latest stored fit of any deck was made; None before the first."""
        value = await first_value(self._db, _LAST)
        return optional_ms(None if value is None else int(value))
