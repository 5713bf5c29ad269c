"""A GIFT file cut into question blocks, as Moodle cuts it.

Questions are separated by blank lines. Each line is stripped, and a line starting with `//` is a
comment, left out (it does not separate questions). A block starting with `$CATEGORY:` puts the
questions after it in that category: its last part (`$course$/top/Networking` -> `Networking`,
`//` standing for a `/` inside a name) becomes their topic.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass

CATEGORY = "$CATEGORY:"
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_CONTEXT = re.compile(r"\$[a-z]+\$")  # $course$, $system$, …: where a category lives in Moodle


@dataclass(frozen=True)
class Block:
    """The lines of one question, comments left out, joined by line breaks, with where each
    line is in the file."""

    text: str
    lines: tuple[int, ...]  # the file's line number of each line of `text`
    starts: tuple[int, ...]  # the offset in `text` where each line starts

    @classmethod
    def of(cls, numbered: list[tuple[int, str]]) -> Block:
        """The block of the (line number, stripped line) pairs of one question."""
        starts, offset = [], 0
        for _, line in numbered:
            starts.append(offset)
            offset += len(line) + 1
        text = "\n".join(line for _, line in numbered)
        return cls(text, tuple(number for number, _ in numbered), tuple(starts))

    @property
    def line(self) -> int:
        """The file's line number where the block starts."""
        return self.lines[0]

    def line_at(self, offset: int) -> int:
        """The file's line number of the character at `offset` in the block's text."""
        index = bisect.bisect_right(self.starts, offset) - 1
        return self.lines[max(index, 0)]


def category_topic(path: str) -> str:
    """The last part of a category path, or "" when it has none: `a/b//c` -> `b/c`."""
    parts = [""]
    for run in re.finditer(r"/+|[^/]+", path):
        piece = run.group(0)
        if piece.startswith("/"):
            parts[-1] += "/" * (len(piece) // 2)
            if len(piece) % 2:
                parts.append("")
        else:
            parts[-1] += piece
    if len(parts) > 1 and _CONTEXT.fullmatch(parts[0].strip()):
        parts = parts[1:]
    named = [part.strip() for part in parts if part.strip()]
    return named[-1] if named else ""


def blocks(text: str) -> Iterator[tuple[Block, str | None]]:
    """Each question block of a GIFT file, with the topic of a category set just before it
    (None when the category stays the same)."""
    current: list[tuple[int, str]] = []
    topic: str | None = None
    for number, raw in enumerate(_LINE_BREAK.split(text), start=1):
        line = raw.strip()
        if line.startswith("//"):
            continue
        if line.startswith(CATEGORY) and not current:
            topic = category_topic(line.removeprefix(CATEGORY))
            continue
        if line:
            current.append((number, line))
        elif current:
            yield Block.of(current), topic
            current, topic = [], None
    if current:
        yield Block.of(current), topic
