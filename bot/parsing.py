"""Command arguments: one pure parser per command, from the raw argument text to a typed request.

Each `parse_*` takes everything after the command word (possibly empty, any Unicode) and returns
either the parsed request or a `Usage` whose text is ready to send as Telegram HTML. They never
raise. Arguments are separated by whitespace (as `str.split()` splits, like PTB's
`context.args`); keywords are case-insensitive; numbers are ASCII digits only, so '²', '٣' and
full-width '５' are not numbers. Zone names are only ever looked up in
`zoneinfo.available_timezones()`: user text never reaches `ZoneInfo()` or the filesystem.

/stop, /me, /topics, /help and /start take no arguments; anything after them is ignored, so they
have no parser here.
"""

from __future__ import annotations

import difflib
import functools
import re
import zoneinfo
from dataclasses import dataclass
from datetime import time

from bot.core.model import PeriodKind
from bot.text import echo

MAX_ROUND = 20  # = bot.core.rounds.MAX_ROUND (a test pins it); not imported, to stay stdlib-light

# Wording shared with the handlers' usage texts. No '<' or '&': these are HTML already.
ROUND_USAGE = (
    f"Usage: /quiz for one question, /quiz N for a round of N (1–{MAX_ROUND}), "
    "/quiz TOPIC or /quiz N TOPIC for one topic (/topics lists them)."
)
TOPIC_LIMIT = 64  # characters of a topic name after /quiz
LEADERBOARD_USAGE = "Usage: /leaderboard, /leaderboard month or /leaderboard all"
TIMEZONE_USAGE = "Usage: /timezone Area/City, for example /timezone Europe/Berlin"
DAILY_USAGE = (
    "Usage: /daily HH:MM [Area/City] to get a question every day at that local time, "
    "/daily off to stop, /daily to see the schedule. Example: /daily 09:00 Europe/Berlin"
)
DECK_USAGE = "Usage: /deck to see the decks, /deck ID to switch (admins)."

_NUMBER = re.compile(r"[0-9]{1,3}", re.ASCII)
_HHMM = re.compile(r"([01]?[0-9]|2[0-3]):([0-5][0-9])", re.ASCII)
_DECK_ID = re.compile(r"[a-zA-Z0-9][a-zA-Z0-9-]{0,63}", re.ASCII)
# Every key of the tz database has this shape; anything else is not looked up at all.
_ZONE_SHAPE = re.compile(r"[A-Za-z0-9_+/-]{1,64}", re.ASCII)
# Listed by available_timezones() on some systems but not zones to offer to a chat.
_NOT_ZONES = frozenset({"localtime", "posixrules", "Factory"})


@dataclass(frozen=True)
class Usage:
    """Not a valid use of the command: `text` (Telegram HTML, user text escaped) says why."""

    text: str


@dataclass(frozen=True)
class QuizRequest:
    """/quiz: `size` None asks one question, N asks a round of N (1 ≤ N ≤ MAX_ROUND);
    `topic` (as typed, words joined by one space) asks only from the topic it names."""

    size: int | None = None
    topic: str | None = None


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


def arguments_of(message_text: str) -> str:
    """The raw argument text of a command message: all after '/command' or '/command@bot'."""
    parts = message_text.split(maxsplit=1)
    return parts[1] if len(parts) == 2 else ""


def _words(text: str, most: int) -> list[str] | None:
    """The whitespace-separated words of `text`, or None when there are more than `most`."""
    words = text.split(maxsplit=most)
    return None if len(words) > most else words


def _is_topic(text: str) -> bool:
    """Topic-shaped: short, printable, with a letter (so '-1', '²' and '5.0' are not)."""
    return len(text) <= TOPIC_LIMIT and text.isprintable() and any(c.isalpha() for c in text)


def parse_quiz(text: str) -> QuizRequest | Usage:
    """'' → one question; 'N' (1 ≤ N ≤ MAX_ROUND) → a round of N; 'TOPIC', 'N TOPIC' or
    'TOPIC N' → the same from one topic (the core matches the name); else usage. A word of
    ASCII digits is the size, so it comes first or last."""
    words = text.split()
    if not words:
        return QuizRequest()
    size_word: str | None = None
    if _NUMBER.fullmatch(words[0]):
        size_word, words = words[0], words[1:]
    elif _NUMBER.fullmatch(words[-1]):
        size_word, words = words[-1], words[:-1]
    size = None if size_word is None else int(size_word)
    if size is not None and not 1 <= size <= MAX_ROUND:
        return Usage(ROUND_USAGE)
    if not words:
        return QuizRequest(size)
    topic = " ".join(words)
    if not _is_topic(topic):
        return Usage(ROUND_USAGE)
    return QuizRequest(size, topic)


def parse_leaderboard(text: str) -> PeriodKind | Usage:
    """'' → this week; 'week', 'month' or 'all' (any case) → that period; else usage."""
    words = _words(text, 1)
    if words is None:
        return Usage(LEADERBOARD_USAGE)
    if not words:
        return PeriodKind.WEEK
    word = words[0].lower()
    for kind in PeriodKind:
        if word == kind.value:
            return kind
    return Usage(LEADERBOARD_USAGE)


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
    words = _words(text, 2)
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
    words = _words(text, 1)
    if words is None:
        return Usage(DECK_USAGE)
    if not words:
        return ListDecks()
    if _DECK_ID.fullmatch(words[0]) is None:
        return Usage(f"<code>{echo(words[0])}</code> is not a deck ID.\n{DECK_USAGE}")
    return ChooseDeck(words[0].lower())
