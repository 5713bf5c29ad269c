"""The time parsers: /timezone and /daily, zones by name, times of day."""

from __future__ import annotations

import zoneinfo
from datetime import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot import parsing
from bot.parsing import (
    DailyAt,
    DailyOff,
    SetTimezone,
    ShowDaily,
    ShowTimezone,
    Usage,
    find_zone,
    parse_daily,
    parse_time_of_day,
    parse_timezone,
)
from tests.bot.parsing.cases import (
    SPACE,
    ZONES,
    random_case,
)

# /timezone


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Europe/Berlin", "Europe/Berlin"),
        ("europe/berlin", "Europe/Berlin"),
        (" AMERICA/NEW_YORK ", "America/New_York"),
        ("Etc/GMT+5", "Etc/GMT+5"),
        ("utc", "UTC"),
    ],
)
def test_timezone_sets_the_canonical_zone(text: str, key: str) -> None:
    """A tz database key in any case sets that zone under its canonical key."""
    assert parse_timezone(text) == SetTimezone(zoneinfo.ZoneInfo(key))


def test_timezone_alone_shows_the_zone() -> None:
    """No argument (or only whitespace) shows the chat's zone."""
    assert parse_timezone(" \n") == ShowTimezone()


@pytest.mark.parametrize(
    "text", ["../../etc/passwd", "/etc/localtime", "localtime", "Europe/Berlin x", "Mars/Olympus"]
)
def test_timezone_refuses_paths_and_unknown_names(text: str) -> None:
    """Paths, non-zones and unknown names never become a zone."""
    result = parse_timezone(text)
    assert isinstance(result, Usage)
    assert "I don't know the time zone" in result.text
    assert parsing.TIMEZONE_USAGE in result.text


def test_timezone_unknown_name_is_escaped_shortened_and_has_an_example() -> None:
    """The reply names what was written, escaped and cut to ~40 characters, with an example."""
    result = parse_timezone("<b>" + "x" * 100)
    assert isinstance(result, Usage)
    assert "<code>&lt;b&gt;xxx" in result.text
    assert "x" * 50 not in result.text
    assert "Europe/Berlin" in result.text


def test_timezone_suggests_a_close_match() -> None:
    """A near miss of a real zone is answered with that zone."""
    result = parse_timezone("Europe/Berln")
    assert isinstance(result, Usage)
    assert "Did you mean Europe/Berlin?" in result.text


def test_find_zone_does_not_touch_the_filesystem_for_unlisted_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Names not in available_timezones() are never handed to ZoneInfo()."""

    def refuse(key: str) -> None:
        raise AssertionError(f"ZoneInfo({key!r}) called")

    monkeypatch.setattr(zoneinfo, "ZoneInfo", refuse)
    assert find_zone("../../../../etc/passwd") is None
    assert find_zone("Europe/Nowhere") is None


@settings(max_examples=100)
@given(st.sampled_from(ZONES).flatmap(lambda k: st.tuples(st.just(k), random_case(k))), SPACE)
def test_every_zone_round_trips_in_any_case(case: tuple[str, str], space: str) -> None:
    """Every listed zone, in any mix of cases, sets itself under its canonical key."""
    key, written = case
    result = parse_timezone(space + written + space)
    assert isinstance(result, SetTimezone)
    assert result.zone.key == key


# /daily


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", ShowDaily()),
        ("off", DailyOff()),
        (" OFF ", DailyOff()),
        ("9:00", DailyAt(time(9, 0))),
        ("09:00", DailyAt(time(9, 0))),
        ("23:59", DailyAt(time(23, 59))),
        ("00:00", DailyAt(time(0, 0))),
        ("7:05 europe/berlin", DailyAt(time(7, 5), zoneinfo.ZoneInfo("Europe/Berlin"))),
    ],
)
def test_daily_accepts_show_off_and_times(text: str, expected: object) -> None:
    """Show, off (any case), H:MM / HH:MM with an optional zone in any case."""
    assert parse_daily(text) == expected


@pytest.mark.parametrize(
    "text",
    ["24:00", "25:00", "9:60", "9:5", "９:００", "٩:٠٠", "9:00am", "0900", "²:00", "off 9:00"],
)
def test_daily_rejects_invalid_times(text: str) -> None:
    """Out-of-range, non-ASCII-digit or malformed times get the daily usage."""
    result = parse_daily(text)
    assert isinstance(result, Usage)
    assert parsing.DAILY_USAGE in result.text


def test_daily_rejects_too_many_arguments() -> None:
    """A third argument gets the plain daily usage."""
    assert parse_daily("09:00 Europe/Berlin extra") == Usage(parsing.DAILY_USAGE)


def test_daily_names_an_unknown_zone() -> None:
    """An unknown zone after a valid time is named (escaped) along with the usage."""
    result = parse_daily("09:00 <i>Nowhere")
    assert isinstance(result, Usage)
    assert "<code>&lt;i&gt;Nowhere</code>" in result.text
    assert parsing.DAILY_USAGE in result.text


@settings(max_examples=100)
@given(
    st.integers(0, 23),
    st.integers(0, 59),
    st.booleans(),
    st.none() | st.sampled_from(ZONES),
    SPACE,
)
def test_daily_times_round_trip(
    hour: int, minute: int, pad: bool, zone: str | None, space: str
) -> None:
    """Every HH:MM (hour padded or not), with or without a zone, parses back to itself."""
    written = f"{hour:02d}:{minute:02d}" if pad else f"{hour}:{minute:02d}"
    text = f"{space}{written} {zone or ''}{space}"
    expected = DailyAt(time(hour, minute), zoneinfo.ZoneInfo(zone) if zone else None)
    assert parse_daily(text) == expected


@settings(max_examples=200)
@given(st.text(alphabet="0123456789:²٣９", max_size=6))
def test_time_of_day_agrees_with_the_schedule_parser(word: str) -> None:
    """parse_time_of_day accepts exactly what bot.core.rules.schedule.parse_local_time accepts."""
    from bot.core.rules.schedule import parse_local_time

    assert parse_time_of_day(word) == parse_local_time(word)
