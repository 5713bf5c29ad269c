"""The one table of callback-data prefixes: every inline button's data is `PREFIX:field:…`.

Telegram allows 1–64 bytes of data per button. Each button type encodes through `encoded`,
which refuses anything longer, and parses its own fields back; the handlers route presses by
these prefixes (`route`). A new button type adds its prefix here, so no two types can share one.
"""

from __future__ import annotations

import re
from enum import StrEnum

MAX_CALLBACK_BYTES = 64
SEPARATOR = ":"


class Prefix(StrEnum):
    ANSWER = "a"  # a letter under a question
    NEXT = "n"  # `Next ▶` in a private round
    PICK = "p"  # a letter of a "choose N" question (picks or unpicks it)
    SUBMIT = "s"  # `Submit` under a "choose N" question
    REPORT = "r"  # `⚑ Report` under an explanation
    REPORT_REASON = "rp"  # a reason in the report picker
    REPORT_SKIP = "rs"  # `Send without comment`
    REPORT_FIXED = "rf"  # `Fixed` in the reports chat
    REPORT_DISMISSED = "rd"  # `Dismiss` in the reports chat
    EXAM_CHOOSE = "xa"
    EXAM_GO = "xg"
    EXAM_FLAG = "xf"
    EXAM_MISS = "xm"
    EXAM_FINISH = "xe"
    EXAM_FINISH_NOW = "xn"
    EXAM_RESUME = "xr"
    EXAM_RESULT = "xo"
    QUIZ_ME = "quizme"  # "Ask me a question" when no review is due
    FORGET = "forget"  # /forgetme's confirmation


class CallbackDataTooLongError(ValueError):
    """A button's data would be over Telegram's 64 bytes."""


def encoded(prefix: Prefix, *fields: int | str) -> str:
    """`prefix:field:…`, checked against Telegram's limit."""
    data = SEPARATOR.join([prefix.value, *(str(field) for field in fields)])
    if len(data.encode()) > MAX_CALLBACK_BYTES:
        raise CallbackDataTooLongError(f"{len(data.encode())} bytes of callback data: {data!r}")
    return data


def fields_of(prefix: Prefix, data: str | None) -> list[str] | None:
    """The fields after `prefix` when `data` has that prefix, else None."""
    if data is None:
        return None
    head, _, rest = data.partition(SEPARATOR)
    if head != prefix.value:
        return None
    return rest.split(SEPARATOR) if rest else []


def family(letter: str) -> re.Pattern[str]:
    """Every data of a family of prefixes (`r`, `rp`, `rs`…): its handler takes them all, also
    forged ones, and answers what it cannot parse in the family's own words."""
    return re.compile(rf"^{re.escape(letter)}[a-z]?{SEPARATOR}")


def route(*prefixes: Prefix) -> re.Pattern[str]:
    """The pattern a handler takes presses with: data starting with one of `prefixes`."""
    names = "|".join(re.escape(p.value) for p in sorted(prefixes, key=len, reverse=True))
    return re.compile(rf"^(?:{names})(?:{SEPARATOR}|$)")
