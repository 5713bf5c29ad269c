"""Daily questions: schedules in local time, planning due slots and catching up (service), and
the push each slot owes (owed)."""

from __future__ import annotations

from bot.core.daily.owed import DAILY as DAILY
from bot.core.daily.service import DailyService as DailyService
from bot.core.daily.service import DailyStatus as DailyStatus
