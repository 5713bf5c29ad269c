"""GIFT's escapes, as Moodle reads and writes them: `\\~ \\= \\# \\{ \\} \\:` for the characters
that mark up a question, `\\\\` for a backslash and `\\n` for a line break; and the format marker
(`[html]`…) a text may start with.

Parsing looks for markup in a masked copy of the text, where every escape is hidden, so that a
position found there is the same position in the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_UNESCAPED = {"~": "~", "=": "=", "#": "#", "{": "{", "}": "}", ":": ":", "\\": "\\", "n": "\n"}
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
_TO_ESCAPE = re.compile(r"[\\~=#{}:\n]")
_HIDDEN = "\0\0"
FORMAT = re.compile(r"\[(?:html|moodle|plain|markdown)\]", re.IGNORECASE)


def unescape(text: str) -> str:
    """`text` with each GIFT escape replaced by the character it stands for; a backslash before
    any other character is kept, as Moodle keeps it."""
    return _ESCAPE.sub(lambda m: _UNESCAPED.get(m.group(1), m.group(0)), text)


def escape(text: str) -> str:
    """`text` written for GIFT on one line: markup characters and backslashes escaped, line breaks
    as `\\n`."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _TO_ESCAPE.sub(lambda m: "\\n" if m.group(0) == "\n" else "\\" + m.group(0), text)


def without_format(text: str) -> str:
    """`text` without a leading format marker (`[html]`, `[moodle]`, `[plain]`, `[markdown]`)."""
    match = FORMAT.match(text)
    return text[match.end() :].strip() if match else text


def mask(text: str) -> str:
    """`text` of the same length with each escape (`\\` and the character after it) hidden."""
    return _ESCAPE.sub(lambda m: _HIDDEN if m.group(1) in _UNESCAPED else m.group(0), text)


@dataclass(frozen=True)
class Span:
    """A stretch of a question block: its raw text, that text masked, and where it starts."""

    raw: str
    masked: str
    start: int

    @classmethod
    def of(cls, raw: str, start: int = 0) -> Span:
        """The span of `raw`, starting at offset `start` of its block."""
        return cls(raw, mask(raw), start)

    def find(self, token: str, begin: int = 0) -> int:
        """Where `token` first appears unescaped at or after `begin`; -1 when it does not."""
        return self.masked.find(token, begin)

    def rfind(self, token: str) -> int:
        """Where `token` last appears unescaped; -1 when it does not."""
        return self.masked.rfind(token)

    def cut(self, begin: int, end: int | None = None) -> Span:
        """The part from `begin` to `end` (offsets in this span)."""
        stop = len(self.raw) if end is None else end
        return Span(self.raw[begin:stop], self.masked[begin:stop], self.start + begin)

    def text(self) -> str:
        """The text this span stands for: unescaped and stripped."""
        return unescape(self.raw).strip()

    def stripped_start(self) -> int:
        """The block offset of this span's first character that is not white space."""
        return self.start + len(self.raw) - len(self.raw.lstrip())
