"""`/timezone`, `/daily` and `/deck`: zones by name, times of day, deck ids."""

from __future__ import annotations

import difflib
import functools
import re
import zoneinfo
from dataclasses import dataclass
from datetime import time

from bot.parsing.common import Usage, split_words
from bot.render.text import echo

TIMEZONE_USAGE = "Usage: /timezone Area/City, for example /timezone Europe/Berlin"


DAILY_USAGE = (
    "Usage: /daily HH:MM [Area/City] to get a question every day at that local time, "
    "/daily off to stop, /daily to see the schedule. Example: /daily 09:00 Europe/Berlin"
)


DECK_USAGE = "Usage: /deck to see the decks, /deck ID to switch (admins)."


_HHMM = re.compile(r"([01]?[0-9]|2[0-3]):([0-5][0-9])", re.ASCII)


_DECK_ID = re.compile(r"[a-zA-Z0-9][a-zA-Z0-9-]{0,63}", re.ASCII)


# Every key of the tz database has this shape; anything else is not looked up at all.
_ZONE_SHAPE = re.compile(r"[A-Za-z0-9_+/-]{1,64}", re.ASCII)


# Listed by available_timezones() on some systems but not zones to offer to a chat.
_NOT_ZONES = frozenset({"localtime", "posixrules", "Factory"})


@dataclass(frozen=True)
class ShowTimezone:
    """/timezone alone: show the chat's time zone."""


@dataclass(frozen=True)
class SetTimezone:
    """/timezone Zone: set the chat's time zone (a canonical tz database key)."""

    zone: zoneinfo.ZoneInfo


@dataclass(frozen=True)
class ShowDaily:
    """/daily alone: show the daily question's schedule."""


@dataclass(frozen=True)
class DailyOff:
    """/daily off: stop the daily question."""


@dataclass(frozen=True)
class DailyAt:
    """/daily HH:MM [Zone]: a question every day at `at`, in `zone` (None: the chat's zone)."""

    at: time
    zone: zoneinfo.ZoneInfo | None = None


@dataclass(frozen=True)
class ListDecks:
    """/deck alone: list the decks."""


@dataclass(frozen=True)
class ChooseDeck:
    """/deck ID: switch to the deck `deck_id` (lower-cased; only its shape is checked here)."""

    deck_id: str


@functools.cache
def _zone_keys() -> dict[str, str]:
    """Lower-cased tz database key → canonical key, computed once."""
    try:
        keys = zoneinfo.available_timezones()
    except Exception:  # an unreadable tz path: then no zone is known, and nothing raises
        keys = set()
    return {
        key.lower(): key for key in keys if key not in _NOT_ZONES and _ZONE_SHAPE.fullmatch(key)
    }


def find_zone(name: str) -> zoneinfo.ZoneInfo | None:
    """The zone whose key is `name` up to case ('europe/berlin' → Europe/Berlin), else None."""
    if _ZONE_SHAPE.fullmatch(name) is None:
        return None
    key = _zone_keys().get(name.lower())
    if key is None:
        return None
    try:
        return zoneinfo.ZoneInfo(key)
    except Exception:  # a listed key whose file is unreadable or corrupt
        return None


def _unknown_zone(name: str, usage: str) -> Usage:
    """'I don't know the time zone …', with a close match if there is one, then `usage`."""
    hint = ""
    if _ZONE_SHAPE.fullmatch(name) is not None:
        keys = _zone_keys()
        close = difflib.get_close_matches(name.lower(), list(keys), n=1, cutoff=0.8)
        if close:
            hint = f" Did you mean {echo(keys[close[0]])}?"
    return Usage(f"I don't know the time zone <code>{echo(name)}</code>.{hint}\n{usage}")


def parse_timezone(text: str) -> ShowTimezone | SetTimezone | Usage:
    """'' → show; a tz database key (any case) → set it; anything else → usage naming it."""
    name = text.strip()
    if not name:
        return ShowTimezone()
    zone = find_zone(name)
    if zone is None:
        return _unknown_zone(name, TIMEZONE_USAGE)
    return SetTimezone(zone)


def parse_time_of_day(word: str) -> time | None:
    """'H:MM' or 'HH:MM', 24-hour, ASCII digits (00:00–23:59), else None."""
    match = _HHMM.fullmatch(word)
    if match is None:
        return None
    return time(int(match[1]), int(match[2]))


def parse_daily(text: str) -> ShowDaily | DailyOff | DailyAt | Usage:
    """'' → show; 'off' → off; 'HH:MM' or 'HH:MM Zone' → on at that time; else usage."""
    words = split_words(text, 2)
    if words is None:
        return Usage(DAILY_USAGE)
    if not words:
        return ShowDaily()
    if len(words) == 1 and words[0].lower() == "off":
        return DailyOff()
    at = parse_time_of_day(words[0])
    if at is None:
        return Usage(
            f"<code>{echo(words[0])}</code> is not a time of day (HH:MM, 24-hour).\n{DAILY_USAGE}"
        )
    if len(words) == 1:
        return DailyAt(at)
    zone = find_zone(words[1])
    if zone is None:
        return _unknown_zone(words[1], DAILY_USAGE)
    return DailyAt(at, zone)


def parse_deck(text: str) -> ListDecks | ChooseDeck | Usage:
    """'' → list; one word shaped like a deck id (any case) → choose it; else usage."""
    words = split_words(text, 1)
    if words is None:
        return Usage(DECK_USAGE)
    if not words:
        return ListDecks()
    if _DECK_ID.fullmatch(words[0]) is None:
        return Usage(f"<code>{echo(words[0])}</code> is not a deck ID.\n{DECK_USAGE}")
    return ChooseDeck(words[0].lower())
