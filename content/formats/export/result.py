"""What a writer gives back: the file's bytes, how many questions it holds, the questions it
could not hold and the fields it has no place for; and how options are lettered."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from content.models import Question

_LINE_BREAKS = re.compile(r"\s*(?:\r\n|\r|\n)\s*")
# Every field of a question but its text and options, which every format holds.
FIELDS = ("id", "topic", "explanation", "source", "note", "scenario", "image", "explanation_image")


@dataclass(frozen=True)
class Exported:
    """A deck written in another format."""

    content: bytes
    questions: int  # how many the file holds
    skipped: tuple[tuple[str, str], ...] = ()  # (question id, why the format cannot hold it)
    left_out: tuple[str, ...] = ()  # e.g. "`source` of 10 questions"


def left_out(questions: Collection[Question], holds: Collection[str]) -> tuple[str, ...]:
    """Each field some of `questions` have that a format which `holds` these fields drops."""
    found = []
    for name in FIELDS:
        count = sum(1 for question in questions if getattr(question, name) not in (None, False))
        if name not in holds and count:
            found.append(f"`{name}` of {count} question{'s' if count != 1 else ''}")
    return tuple(found)


def letter(index: int) -> str:
    """The letter of the option at `index`: 0 -> A."""
    return chr(ord("A") + index)


def one_line(text: str) -> str:
    """`text` on one line: each line break, with the white space around it, as one space."""
    return _LINE_BREAKS.sub(" ", text).strip()
