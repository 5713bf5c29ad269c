"""User input of learner reports: the comment text (the deep link is in callback_data/links.py).

The parser takes any Unicode and never raises.
"""

from __future__ import annotations

from bot.render.text import ELLIPSIS, shorten, visible

COMMENT_LIMIT = 1000


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
