"""Rounds (`/quiz N`, review sessions): the use case (service.py, with its outcomes), how a
round went (summary) and what rounds owe (owed: the summary, `Next ▶` taken off). The names of
summary and owed are handed on here; the use case is imported from its module."""

from __future__ import annotations

from bot.core.rounds.owed import SUMMARY as SUMMARY
from bot.core.rounds.owed import UNBUTTON as UNBUTTON
from bot.core.rounds.owed import RemoveButton as RemoveButton
from bot.core.rounds.owed import ShowSummary as ShowSummary
from bot.core.rounds.summary import RoundSummary as RoundSummary
