"""Writes inside one transaction (`Store.transaction()` yields a `SqlWrites`): the quiz's own
(transaction.py) and those of exams, memory and reports, one module each."""

from __future__ import annotations

from storage.sql.writes.transaction import EFFECT_FAILED as EFFECT_FAILED
from storage.sql.writes.transaction import OPEN_QUIZ_ASK as OPEN_QUIZ_ASK
from storage.sql.writes.transaction import ROUND_ASKED as ROUND_ASKED
from storage.sql.writes.transaction import SqlWrites as SqlWrites
