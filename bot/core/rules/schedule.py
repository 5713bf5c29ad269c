"""When a daily question is due: local wall-clock times in a zone, DST included.

Behaviour on the days clocks change (documented in docs/group-admins.md):
- a time that does not exist that day (spring forward: 02:30 in Europe/Berlin) is pushed as far
  after the jump as it was after the last valid minute, i.e. 02:30 → 03:30 local;
- a time that happens twice (fall back) is pushed at its first occurrence (the summer-time one).
Either way there is one slot per local day, and the delivery ledger is keyed on that day, so
it is pushed exactly once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

_HHMM = re.compile(r"([01]?[0-9]|2[0-3]):([0-5][0-9])")


def parse_local_time(text: str) -> time | None:
    """`HH:MM` (24-hour) as a time, or None when it is not one."""
    match = _HHMM.fullmatch(text.strip())
    if match is None:
        return None
    return time(int(match[1]), int(match[2]))


def slot_at(day: date, at: time, zone: ZoneInfo) -> datetime:
    """The instant (aware, UTC) of `at` on local `day` in `zone`, by the rules above."""
    # fold=0 gives the first of two repeated times, and for a time inside a gap it applies the
    # offset from before the jump, which lands the same distance after the jump.
    return datetime.combine(day, at, tzinfo=zone).astimezone(UTC)


@dataclass(frozen=True)
class Slot:
    local_day: date
    at: datetime  # aware, UTC


def next_slot(after: datetime, at: time, zone: ZoneInfo) -> Slot:
    """The first slot strictly after `after`."""
    day = after.astimezone(zone).date()
    for offset in range(3):
        candidate = day + timedelta(days=offset)
        moment = slot_at(candidate, at, zone)
        if moment > after:
            return Slot(candidate, moment)
    raise AssertionError("a daily slot always comes within two days")


def latest_slot(at_or_before: datetime, at: time, zone: ZoneInfo) -> Slot:
    """The last slot at or before `at_or_before`."""
    day = at_or_before.astimezone(zone).date()
    for offset in range(3):
        candidate = day - timedelta(days=offset)
        moment = slot_at(candidate, at, zone)
        if moment <= at_or_before:
            return Slot(candidate, moment)
    raise AssertionError("a daily slot always came within two days")
