"""Week and month boundaries in the chat's time zone, DST included."""

from __future__ import annotations

import io
import struct
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.core.rules.periods import (
    EPOCH,
    PeriodKind,
    local_midnight,
    period_keys,
    period_range,
    period_start,
)

UTC_ZONE = ZoneInfo("UTC")
BERLIN = ZoneInfo("Europe/Berlin")
NEW_YORK = ZoneInfo("America/New_York")
KOLKATA = ZoneInfo("Asia/Kolkata")


def utc(
    year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0
) -> datetime:
    return datetime(year, month, day, hour, minute, second, tzinfo=UTC)


def _zone_from_rule(rule: str) -> ZoneInfo:
    """A zone made of a POSIX TZ rule alone (a minimal TZif v2 file with no transitions)."""
    block = struct.pack(">6l", 0, 0, 0, 0, 1, 4) + struct.pack(">lBB", 0, 0, 0) + b"UTC\0"
    header = b"TZif2" + bytes(15)
    data = header + block + header + block + b"\n" + rule.encode() + b"\n"
    return ZoneInfo.from_file(io.BytesIO(data), key="Test/Rule")


@pytest.mark.parametrize(
    ("moment", "week", "month"),
    [
        (utc(2026, 12, 2, 9, 30), utc(2026, 11, 30), utc(2026, 12, 1)),
        (utc(2026, 11, 30, 0, 0), utc(2026, 11, 30), utc(2026, 11, 1)),
        (utc(2026, 11, 29, 23, 59, 59), utc(2026, 11, 23), utc(2026, 11, 1)),
        (utc(2027, 1, 1, 0, 0), utc(2026, 12, 28), utc(2027, 1, 1)),
    ],
)
def test_weeks_start_on_monday_and_months_on_the_first_in_utc(
    moment: datetime, week: datetime, month: datetime
) -> None:
    """In UTC a week starts Monday 00:00 and a month on the 1st 00:00, across a year's end."""
    keys = period_keys(moment, UTC_ZONE)
    assert (keys.week_start, keys.month_start) == (week, month)
    assert keys.week_start.tzinfo is UTC


def test_berlin_week_starts_at_23_utc_in_winter_and_22_utc_in_summer() -> None:
    """Monday 00:00 in Berlin is Sunday 23:00 UTC in winter (CET) and 22:00 UTC in summer."""
    winter = period_start(PeriodKind.WEEK, utc(2026, 12, 2, 12), BERLIN)
    summer = period_start(PeriodKind.WEEK, utc(2026, 7, 15, 12), BERLIN)
    assert winter == utc(2026, 11, 29, 23)
    assert summer == utc(2026, 7, 12, 22)


def test_berlin_week_across_the_spring_change_is_167_hours() -> None:
    """The week with the spring-forward Sunday ends an hour early in UTC terms."""
    start, end = period_range(PeriodKind.WEEK, utc(2026, 3, 25, 12), BERLIN)
    assert start == utc(2026, 3, 22, 23)
    assert end == utc(2026, 3, 29, 22)
    assert end - start == timedelta(hours=167)


def test_berlin_month_starts_follow_dst() -> None:
    """1 April 00:00 Berlin is 22:00 UTC the day before; 1 November 00:00 is 23:00 UTC."""
    assert period_start(PeriodKind.MONTH, utc(2026, 4, 10), BERLIN) == utc(2026, 3, 31, 22)
    assert period_start(PeriodKind.MONTH, utc(2026, 11, 10), BERLIN) == utc(2026, 10, 31, 23)


def test_new_york_week_starts_at_monday_local_midnight() -> None:
    """Monday 00:00 in New York is 05:00 UTC (EST) or 04:00 UTC (EDT)."""
    assert period_start(PeriodKind.WEEK, utc(2026, 12, 2, 12), NEW_YORK) == utc(2026, 11, 30, 5)
    assert period_start(PeriodKind.WEEK, utc(2026, 7, 15, 12), NEW_YORK) == utc(2026, 7, 13, 4)


def test_new_york_evening_in_utc_next_month_is_still_local_last_month() -> None:
    """1 December 02:00 UTC is still 30 November evening in New York: November's month."""
    keys = period_keys(utc(2026, 12, 1, 2), NEW_YORK)
    assert keys.month_start == utc(2026, 11, 1, 4)


def test_kolkata_half_hour_offset_week_and_month() -> None:
    """Asia/Kolkata is UTC+5:30: Monday 00:00 local is Sunday 18:30 UTC."""
    keys = period_keys(utc(2026, 12, 2, 12), KOLKATA)
    assert keys.week_start == utc(2026, 11, 29, 18, 30)
    assert keys.month_start == utc(2026, 11, 30, 18, 30)


def test_answer_at_2330_local_sunday_belongs_to_the_old_week() -> None:
    """Sunday 23:30 in New York is Monday 04:30 UTC, yet it still counts for the ending week."""
    sunday_late = datetime(2026, 11, 29, 23, 30, tzinfo=NEW_YORK)
    assert sunday_late.astimezone(UTC).weekday() == 0
    assert period_start(PeriodKind.WEEK, sunday_late, NEW_YORK) == utc(2026, 11, 23, 5)
    monday = datetime(2026, 11, 30, 0, 0, tzinfo=NEW_YORK)
    assert period_start(PeriodKind.WEEK, monday, NEW_YORK) == utc(2026, 11, 30, 5)


def test_all_time_starts_at_the_epoch() -> None:
    """The all-time period starts at the Unix epoch whatever the moment and zone."""
    assert period_start(PeriodKind.ALL, utc(2026, 12, 2), KOLKATA) == EPOCH
    assert period_keys(utc(2026, 12, 2), KOLKATA).start(PeriodKind.ALL) == EPOCH


def test_ambiguous_midnight_starts_at_its_first_occurrence() -> None:
    """Havana sets clocks back from 01:00 to 00:00: the day starts at the first 00:00."""
    havana = ZoneInfo("America/Havana")
    start = local_midnight(datetime(2024, 11, 3).date(), havana)
    assert start == utc(2024, 11, 3, 4)


def test_midnight_at_the_start_of_a_dst_gap_is_the_jump() -> None:
    """Havana jumps from 00:00 to 01:00 in March: that day starts at the jump, 05:00 UTC."""
    start = local_midnight(datetime(2024, 3, 10).date(), ZoneInfo("America/Havana"))
    assert start == utc(2024, 3, 10, 5)


def test_midnight_inside_a_dst_gap_is_the_first_instant_after_it() -> None:
    """Clocks jumping 23:30 → 00:30 skip Monday 00:00: the week starts at the jump."""
    zone = _zone_from_rule("AST0ADT-1,M3.5.0/23:30,M10.5.0/1")
    monday = utc(2026, 3, 30, 12)
    start = period_start(PeriodKind.WEEK, monday, zone)
    assert start == utc(2026, 3, 29, 23, 30)
    assert start.astimezone(zone).strftime("%a %H:%M") == "Mon 00:30"


def test_naive_moment_is_refused() -> None:
    """A naive datetime has no defined instant, so computing its period is an error."""
    with pytest.raises(ValueError, match="naive"):
        period_keys(datetime(2026, 12, 2), UTC_ZONE)
