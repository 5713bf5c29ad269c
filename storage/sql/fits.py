"""Each learner's fitted memory parameters: who is due a fit, their presses, and their last fit
per deck (one row, read by its key on the answer path's cache misses)."""

from __future__ import annotations

import json
from datetime import datetime

from bot.core.model import Learned, MemoryFit
from bot.core.ports import FitCandidate
from storage.sql.base import StoreBase
from storage.sql.conn import first_value
from storage.sql.rows import from_ms, optional_ms, to_ms

# The learners due a fit are found a batch of learners at a time (keyset on the log's key,
# which leads with user_id), so that no statement holds the database for long (SQLite has one
# connection for the answers too): the next learners after ?1, then their presses per deck
# against their last fit there.
_LEARNERS = "SELECT DISTINCT user_id FROM learning_log WHERE user_id > ?1 ORDER BY user_id LIMIT ?2"
_COUNTS = """
SELECT log.user_id, log.deck_id, count(*) AS n,
       (SELECT fit.reviews FROM memory_parameters AS fit
        WHERE fit.user_id = log.user_id AND fit.deck_id = log.deck_id) AS fitted
FROM learning_log AS log
WHERE log.user_id BETWEEN ?1 AND ?2
GROUP BY log.user_id, log.deck_id
ORDER BY log.user_id, log.deck_id
"""
LEARNERS_A_BATCH = 200
_PRESSES = (
    "SELECT question_id, correct, at FROM learning_log "
    "WHERE user_id = ?1 AND deck_id = ?2 ORDER BY at"
)
_COUNT = "SELECT count(*) FROM learning_log WHERE user_id = ?1 AND deck_id = ?2"
_COLUMNS = "user_id, deck_id, parameters, reviews, default_loss, fitted_loss, fitted_at"
_FORGET = "DELETE FROM memory_parameters WHERE user_id = ?1 AND deck_id = ?2"
_SAVE = f"INSERT INTO memory_parameters ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)"
_FIT = f"SELECT {_COLUMNS} FROM memory_parameters WHERE user_id = ?1 AND deck_id = ?2"
_LAST = "SELECT max(fitted_at) FROM memory_parameters"


class FitQueries(StoreBase):
    async def fit_candidates(self, min_reviews: int, growth: float) -> list[FitCandidate]:
        due: list[FitCandidate] = []
        after = -(2**63)
        while True:
            batch = await self._db.fetch_all(_LEARNERS, (after, LEARNERS_A_BATCH))
            if not batch:
                return due
            first, after = int(batch[0][0]), int(batch[-1][0])
            for row in await self._db.fetch_all(_COUNTS, (first, after)):
                reviews, fitted = int(row[2]), row[3]
                if reviews >= min_reviews and (
                    fitted is None or reviews >= int(fitted) * (1 + growth)
                ):
                    due.append(FitCandidate(int(row[0]), str(row[1]), reviews))
            if len(batch) < LEARNERS_A_BATCH:
                return due

    async def presses(self, user_id: int, deck_id: str) -> list[Learned]:
        rows = await self._db.fetch_all(_PRESSES, (user_id, deck_id))
        return [Learned(str(row[0]), bool(row[1]), from_ms(int(row[2]))) for row in rows]

    async def save_memory_fit(self, fit: MemoryFit) -> None:
        parameters = None if fit.parameters is None else json.dumps(list(fit.parameters))
        async with self._db.transaction() as conn:
            await conn.execute(_FORGET, (fit.user_id, fit.deck_id))
            await conn.execute(
                _SAVE,
                (
                    fit.user_id,
                    fit.deck_id,
                    parameters,
                    fit.reviews,
                    fit.default_loss,
                    fit.fitted_loss,
                    to_ms(fit.fitted_at),
                ),
            )

    async def memory_fit(self, user_id: int, deck_id: str) -> MemoryFit | None:
        row = await self._db.fetch_one(_FIT, (user_id, deck_id))
        if row is None:
            return None
        raw = row["parameters"]
        return MemoryFit(
            user_id=int(row["user_id"]),
            deck_id=str(row["deck_id"]),
            parameters=None if raw is None else tuple(float(v) for v in json.loads(str(raw))),
            reviews=int(row["reviews"]),
            default_loss=float(row["default_loss"]),
            fitted_loss=float(row["fitted_loss"]),
            fitted_at=from_ms(int(row["fitted_at"])),
        )

    async def review_count(self, user_id: int, deck_id: str) -> int:
        return int(await first_value(self._db, _COUNT, (user_id, deck_id)) or 0)

    async def last_memory_fit(self) -> datetime | None:
        value = await first_value(self._db, _LAST)
        return optional_ms(None if value is None else int(value))
