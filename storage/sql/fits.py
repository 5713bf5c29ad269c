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

# A learner's presses per deck against their last fit there: due when never fitted, or when
# their presses grew by ?2 percent since (the rare leader's scan, not the answer path's).
_CANDIDATES = """
SELECT log.user_id, log.deck_id, count(*) AS n
FROM learning_log AS log
LEFT JOIN memory_parameters AS fit ON fit.user_id = log.user_id AND fit.deck_id = log.deck_id
GROUP BY log.user_id, log.deck_id, fit.reviews
HAVING count(*) >= ?1 AND (fit.reviews IS NULL OR count(*) * 100 >= fit.reviews * (100 + ?2))
ORDER BY log.user_id, log.deck_id
"""
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
        percent = round(growth * 100)
        rows = await self._db.fetch_all(_CANDIDATES, (min_reviews, percent))
        return [FitCandidate(int(row[0]), str(row[1]), int(row[2])) for row in rows]

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
