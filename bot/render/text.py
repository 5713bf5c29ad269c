"""Repeating user text in a Telegram HTML reply: shortened, visible, escaped, encodable.

Anything a user typed can hold control characters, NULs, lone surrogates (which cannot even be
encoded as UTF-8, so the reply would fail to send), zero-width and bidirectional marks (which
can reorder the rest of the reply), `<`, `&` and megabytes of text. `echo` turns it into a short
fragment that is safe to put anywhere in an HTML message (text or attribute value).
Stdlib only; nothing here raises.
"""

from __future__ import annotations

import html
import unicodedata

ELLIPSIS = "…"
REPLACEMENT = "\ufffd"  # shown where an invisible or unsendable character was
ECHO_LIMIT = 40
MESSAGE_LIMIT = 4096  # a message's text, in UTF-16 code units as Telegram counts it

# Format characters that are kept: the zero-width joiner (emoji sequences such as 👩‍💻) and
# the tag characters of subdivision flags (🏴󠁧󠁢󠁳󠁣󠁴󠁿).
_KEPT_FORMAT = frozenset({0x200D, *range(0xE0020, 0xE0080)})


def shorten(text: str, limit: int) -> str:
    """`text` if it has at most `limit` characters, else its start plus '…' (`limit` in all)."""
    limit = max(limit, 0)
    if len(text) <= limit:
        return text
    if limit == 0:
        return ""
    return text[: limit - 1].rstrip() + ELLIPSIS


def utf16_len(text: str) -> int:
    """Length as Telegram counts it: in UTF-16 code units (an emoji may count twice)."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _visible(char: str) -> str:
    """' ' for any whitespace, '�' for a control, surrogate or hidden format character."""
    if char.isspace():
        return " "
    category = unicodedata.category(char)
    if category in ("Cc", "Cs") or (category == "Cf" and ord(char) not in _KEPT_FORMAT):
        return REPLACEMENT
    return char


def visible(text: str) -> str:
    """`text` on one line: whitespace runs as one space, hidden characters as one '�' a run."""
    out: list[str] = []
    for char in text:
        shown = _visible(char)
        if shown in (" ", REPLACEMENT) and out and out[-1] == shown:
            continue
        out.append(shown)
    return "".join(out).strip(" ")


def echo(text: str, limit: int = ECHO_LIMIT) -> str:
    """User text made safe to repeat in a Telegram HTML reply: visible, shortened, escaped.

    At most `limit` characters are shown, ending in '…' when cut (escaping adds entities such
    as `&lt;`, which Telegram counts as one character each).
    """
    limit = max(limit, 0)
    # Only a bounded prefix is cleaned, so huge inputs stay cheap; it is long enough to fill
    # `limit` unless it is mostly hidden characters, and then the '…' still says it was cut.
    budget = 8 * limit + 8
    shown = visible(text[:budget])
    if len(text) > budget:
        shown += ELLIPSIS
    return html.escape(shorten(shown, limit))
