"""User input of learner reports: the `/start` deep-link payload and the comment text.

Both parsers take any Unicode and never raise. A payload is ASCII only (`report-<ask id>`, the
ask id in ASCII digits without a leading zero), as Telegram allows in a start parameter
(A–Z, a–z, 0–9, `_` and `-`, at most 64 characters).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.text import ELLIPSIS, shorten, visible

COMMENT_LIMIT = 1000
START_PARAMETER_LIMIT = 64
_PAYLOAD = re.compile(r"report-([1-9][0-9]{0,17})", re.ASCII)


@dataclass(frozen=True)
class ReportLink:
    """`/start report-<ask id>`: report the question of that ask (from a group's message)."""

    ask_id: int

    def payload(self) -> str:
        return f"report-{self.ask_id}"


def report_url(bot_username: str, link: ReportLink) -> str:
    """The deep link that opens the private chat with the bot and sends `/start <payload>`."""
    return f"https://t.me/{bot_username}?start={link.payload()}"


def parse_start_payload(arguments: str) -> ReportLink | None:
    """The report link in `/start`'s argument text, or None (plain `/start`, or anything else:
    an unknown payload is treated as a plain `/start`)."""
    parts = arguments.split()
    if len(parts) != 1 or len(parts[0]) > START_PARAMETER_LIMIT:
        return None
    match = _PAYLOAD.fullmatch(parts[0])
    return None if match is None else ReportLink(int(match[1]))


def clean_comment(text: str, limit: int = COMMENT_LIMIT) -> str | None:
    """A learner's text as a comment to store and show: line breaks kept (at most one empty
    line in a row), other whitespace runs as one space, control, hidden and unencodable
    characters as '�', at most `limit` characters ('…' when cut). None when nothing is left."""
    budget = 8 * limit + 8  # huge inputs stay cheap; the '…' still says they were cut
    kept: list[str] = []
    for line in text[:budget].splitlines():
        shown = visible(line)
        if shown or (kept and kept[-1]):
            kept.append(shown)
    cleaned = "\n".join(kept).strip()
    if cleaned and len(text) > budget:
        cleaned += ELLIPSIS
    return shorten(cleaned, limit) or None
