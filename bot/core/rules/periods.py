"""Leaderboard periods: weeks from Monday 00:00 and months from the 1st 00:00, local time."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from bot.core.model import EPOCH, PeriodKeys, PeriodKind


def local_midnight(day: date, zone: ZoneInfo) -> datetime:
    """The first instant (aware, UTC) at or after 00:00 of `day` on the clocks of `zone`.

    An ambiguous midnight (clocks set back to 00:00) is its first occurrence; a midnight that
    does not exist (clocks jump over it) is the moment of the jump.
    """
    wall = datetime.combine(day, time(), tzinfo=zone)
    instant = wall.astimezone(UTC)
    if instant.astimezone(zone).replace(tzinfo=None) == wall.replace(tzinfo=None):
        return instant
    # In a gap, fold=0 maps with the offset from before the jump (an instant after it) and
    # fold=1 with the offset from after it (an instant before it): search between the two.
    before = int(wall.replace(fold=1).astimezone(UTC).timestamp())
    after = int(instant.timestamp())
    offset_after = instant.astimezone(zone).utcoffset()
    while after - before > 1:
        middle = (before + after) // 2
        if datetime.fromtimestamp(middle, zone).utcoffset() == offset_after:
            after = middle
        else:
            before = middle
    return datetime.fromtimestamp(after, UTC)


def _first_day(kind: PeriodKind, day: date) -> date:
    if kind is PeriodKind.WEEK:
        return day - timedelta(days=day.weekday())
    return day.replace(day=1)


def _next_first_day(kind: PeriodKind, first: date) -> date:
    if kind is PeriodKind.WEEK:
        return first + timedelta(days=7)
    return (first + timedelta(days=31)).replace(day=1)


def _local_day(moment: datetime, zone: ZoneInfo) -> date:
    if moment.tzinfo is None:
        raise ValueError("naive datetimes are ambiguous; pass an aware datetime")
    return moment.astimezone(zone).date()


def period_start(kind: PeriodKind, moment: datetime, zone: ZoneInfo) -> datetime:
    """The start (aware, UTC) of the period of `kind` that `moment` falls in, local to `zone`."""
    day = _local_day(moment, zone)
    if kind is PeriodKind.ALL:
        return EPOCH
    return local_midnight(_first_day(kind, day), zone)


def period_range(kind: PeriodKind, moment: datetime, zone: ZoneInfo) -> tuple[datetime, datetime]:
    """The period of `kind` that `moment` falls in as [start, end), aware UTC datetimes.

    The all-time period ends at `datetime.max`.
    """
    day = _local_day(moment, zone)
    if kind is PeriodKind.ALL:
        return EPOCH, datetime.max.replace(tzinfo=UTC)
    first = _first_day(kind, day)
    return local_midnight(first, zone), local_midnight(_next_first_day(kind, first), zone)


def period_keys(moment: datetime, zone: ZoneInfo) -> PeriodKeys:
    """The week and month `moment` belongs to in `zone`, as stored with each answer."""
    return PeriodKeys(
        week_start=period_start(PeriodKind.WEEK, moment, zone),
        month_start=period_start(PeriodKind.MONTH, moment, zone),
    )
