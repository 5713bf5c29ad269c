"""Daily slots in local time across daylight-saving changes."""

from __future__ import annotations

import itertools
from datetime import UTC, date, datetime, time
from zoneinfo import ZoneInfo

import pytest

from bot.core.rules.schedule import latest_slot, next_slot, parse_local_time, slot_at

BERLIN = ZoneInfo("Europe/Berlin")
NEW_YORK = ZoneInfo("America/New_York")


@pytest.mark.parametrize(
    ("zone", "day", "expected_utc"),
    [
        (BERLIN, date(2026, 3, 28), datetime(2026, 3, 28, 8, 0, tzinfo=UTC)),  # CET
        (BERLIN, date(2026, 3, 29), datetime(2026, 3, 29, 7, 0, tzinfo=UTC)),  # CEST from today
        (BERLIN, date(2026, 10, 24), datetime(2026, 10, 24, 7, 0, tzinfo=UTC)),
        (BERLIN, date(2026, 10, 25), datetime(2026, 10, 25, 8, 0, tzinfo=UTC)),
        (NEW_YORK, date(2026, 3, 7), datetime(2026, 3, 7, 14, 0, tzinfo=UTC)),  # EST
        (NEW_YORK, date(2026, 3, 8), datetime(2026, 3, 8, 13, 0, tzinfo=UTC)),  # EDT
        (NEW_YORK, date(2026, 10, 31), datetime(2026, 10, 31, 13, 0, tzinfo=UTC)),
        (NEW_YORK, date(2026, 11, 1), datetime(2026, 11, 1, 14, 0, tzinfo=UTC)),
    ],
)
def test_nine_oclock_stays_nine_oclock_local_across_dst(
    zone: ZoneInfo, day: date, expected_utc: datetime
) -> None:
    """09:00 local is 09:00 local on both sides of a change, so its UTC instant moves."""
    moment = slot_at(day, time(9, 0), zone)
    assert moment == expected_utc
    assert moment.astimezone(zone).hour == 9


def test_time_in_the_spring_gap_is_pushed_after_the_jump() -> None:
    """02:30 does not exist on 29 March in Berlin: the slot is 03:30 local, once that day."""
    moment = slot_at(date(2026, 3, 29), time(2, 30), BERLIN)
    assert moment == datetime(2026, 3, 29, 1, 30, tzinfo=UTC)
    assert f"{moment.astimezone(BERLIN):%H:%M}" == "03:30"
    nyc = slot_at(date(2026, 3, 8), time(2, 30), NEW_YORK)
    assert f"{nyc.astimezone(NEW_YORK):%H:%M}" == "03:30"


def test_repeated_autumn_time_is_pushed_at_its_first_occurrence() -> None:
    """02:30 happens twice on 25 October in Berlin: the slot is the first (summer time) one."""
    assert slot_at(date(2026, 10, 25), time(2, 30), BERLIN) == datetime(
        2026, 10, 25, 0, 30, tzinfo=UTC
    )
    assert slot_at(date(2026, 11, 1), time(1, 30), NEW_YORK) == datetime(
        2026, 11, 1, 5, 30, tzinfo=UTC
    )


def test_one_slot_per_local_day_around_changes() -> None:
    """Walking next_slot across both changes yields one slot per local day, none skipped."""
    for zone, start in (
        (BERLIN, datetime(2026, 3, 27, tzinfo=UTC)),
        (BERLIN, datetime(2026, 10, 23, tzinfo=UTC)),
        (NEW_YORK, datetime(2026, 3, 6, tzinfo=UTC)),
        (NEW_YORK, datetime(2026, 10, 30, tzinfo=UTC)),
    ):
        moment, days = start, []
        for _ in range(5):
            slot = next_slot(moment, time(2, 30), zone)
            days.append(slot.local_day)
            moment = slot.at
        assert [(b - a).days for a, b in itertools.pairwise(days)] == [1, 1, 1, 1]


def test_latest_slot_is_at_or_before() -> None:
    """latest_slot returns today's slot once it has passed, else yesterday's."""
    at = datetime(2026, 12, 2, 8, 0, tzinfo=UTC)  # 09:00 Berlin
    assert latest_slot(at, time(9, 0), BERLIN).local_day == date(2026, 12, 2)
    assert latest_slot(at, time(9, 1), BERLIN).local_day == date(2026, 12, 1)


@pytest.mark.parametrize("text", ["25:00", "9", "9:5", "09:60", "ab:cd", "", "24:00"])
def test_malformed_times_are_rejected(text: str) -> None:
    """Only 24-hour HH:MM parses."""
    assert parse_local_time(text) is None


def test_valid_times_parse() -> None:
    """'9:05' and '23:59' are times."""
    assert parse_local_time("9:05") == time(9, 5)
    assert parse_local_time("23:59") == time(23, 59)
