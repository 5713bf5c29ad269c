"""Deep links: `https://t.me/<bot>?start=<payload>` opens the private chat with the bot and
sends `/start <payload>`, which the start handlers route by payload (PTB's deep-linking way:
one `/start` handler per payload pattern, then the plain greeting).

Payloads are ASCII only, as Telegram allows in a start parameter (A–Z, a–z, 0–9, `_` and `-`,
at most 64 characters): `report-<ask id>` (report a group's question in private) and `review`
(the learner's due reviews, from a group). Parsing takes any Unicode and never raises.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

START_PARAMETER_LIMIT = 64
REPORT_PAYLOAD = r"report-([1-9][0-9]{0,17})"
REVIEW_PAYLOAD = r"review"
_REPORT = re.compile(REPORT_PAYLOAD, re.ASCII)


@dataclass(frozen=True)
class ReportLink:
    """`/start report-<ask id>`: report the question of that ask (from a group's message)."""

    ask_id: int

    def payload(self) -> str:
        return f"report-{self.ask_id}"


@dataclass(frozen=True)
class ReviewLink:
    """`/start review`: the learner's due reviews, in private (from a group's button)."""

    def payload(self) -> str:
        return REVIEW_PAYLOAD


def link_url(bot_username: str, link: ReportLink | ReviewLink) -> str:
    """The deep link that opens the private chat with the bot and sends `/start <payload>`."""
    payload = link.payload()
    if len(payload) > START_PARAMETER_LIMIT:
        raise ValueError(f"start parameter over {START_PARAMETER_LIMIT} characters: {payload!r}")
    return f"https://t.me/{bot_username}?start={payload}"


def start_pattern(payload: str) -> str:
    """The regex of a `/start <payload>` message (also `/start@bot <payload>`)."""
    return rf"^/start(@\w+)?\s+{payload}\s*$"


def parse_report_link(arguments: str) -> ReportLink | None:
    """The report link in `/start`'s argument text, or None (plain `/start`, or anything else:
    an unknown payload is treated as a plain `/start`)."""
    parts = arguments.split()
    if len(parts) != 1 or len(parts[0]) > START_PARAMETER_LIMIT:
        return None
    match = _REPORT.fullmatch(parts[0])
    return None if match is None else ReportLink(int(match[1]))
