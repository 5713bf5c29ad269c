"""Read an Aiken file (Moodle's simplest question format) into a draft deck.

Each question is its text, on one line or more, then its options in letter order from A, one a
line as `A. text` or `A) text`, then `ANSWER: X` naming the right one. Blank lines are ignored.
Aiken has no question ids, no explanations and no topics: ids are made from the text's first
words, and the draft leaves `explanation:` and `topic:` empty for the author to fill in. The
writer is `content/formats/export/aiken.py`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from content.formats.drafts import (
    DeckDraft,
    FormatImportError,
    LineMessage,
    Location,
    checked_questions,
    deck_fields,
    make_draft,
    read_text,
)
from content.formats.practice_test import question_id

OPTION = re.compile(r"([A-Z])[.)][ \t]+(\S.*)")
ANSWER = re.compile(r"ANSWER:(.*)", re.IGNORECASE)
_LETTER = re.compile(r"([A-Z])[.)]?")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass
class _Question:
    """The lines of one question read so far: (line number, text) and (line number, option)."""

    text: list[tuple[int, str]] = field(default_factory=list)
    options: list[tuple[int, str]] = field(default_factory=list)

    @property
    def line(self) -> int:
        return (self.text or self.options)[0][0]

    def next_letter(self) -> str:
        return chr(ord("A") + len(self.options))


@dataclass
class _File:
    """What reading a file has found so far."""

    name: str
    taken: set[str] = field(default_factory=set)
    questions: list[tuple[dict[str, Any], Callable[[Location], int]]] = field(default_factory=list)
    problems: list[LineMessage] = field(default_factory=list)

    def problem(self, line: int, message: str) -> None:
        self.problems.append(LineMessage(self.name, line, message))


def _finish(file: _File, question: _Question, number: int, value: str) -> None:
    """Read `ANSWER: value` at line `number`, the end of `question`."""
    if not question.text:
        file.problem(number, "an ANSWER: line without a question before it")
        return
    if not question.options:
        file.problem(question.line, "a question without options (A. …) before its ANSWER: line")
        return
    letter = _LETTER.fullmatch(value.strip())
    last = chr(ord("A") + len(question.options) - 1)
    if letter is None or not "A" <= letter.group(1) <= last:
        file.problem(number, f"ANSWER: must name one option, A to {last}; found {value.strip()!r}")
        return
    right = ord(letter.group(1)) - ord("A")
    text = "\n".join(line for _, line in question.text)
    wrong = [option for index, option in enumerate(question.options) if index != right]
    raw: dict[str, Any] = {"id": question_id(text, file.taken), "topic": "", "text": text}
    raw["answer"] = question.options[right][1]
    raw["wrong"] = [option for _, option in wrong]
    raw["explanation"] = ""

    def line_of(location: Location) -> int:
        """The line of the option a location names (`answer`, `wrong #2`), else the question's."""
        if location[:1] == ("answer",):
            return question.options[right][0]
        if location[:1] == ("wrong",) and len(location) > 1 and isinstance(location[1], int):
            return wrong[location[1]][0] if location[1] < len(wrong) else question.line
        return question.line

    file.questions.append((raw, line_of))


def parse_aiken(text: str, file: str, *, deck: tuple[str, str, str]) -> DeckDraft:
    """The draft deck of the Aiken `text` (of the file named `file`) under `deck` (id, title,
    source); raise FormatImportError with every mistake found, each at its line."""
    reading = _File(file)
    question = _Question()
    for number, raw_line in enumerate(_LINE_BREAK.split(text), start=1):
        line = raw_line.strip()
        option = OPTION.fullmatch(line)
        if not line:
            continue
        if answer := ANSWER.match(line):
            _finish(reading, question, number, answer.group(1))
            question = _Question()
        elif option and not question.text:
            reading.problem(number, f"an option ({option.group(1)}.) before any question text")
            question = _Question()
        elif option and option.group(1) != question.next_letter():
            expected = question.next_letter()
            reading.problem(number, f"expected option {expected}, found {option.group(1)}")
            question.options.append((number, option.group(2).strip()))
        elif option:
            question.options.append((number, option.group(2).strip()))
        elif question.options:
            reading.problem(question.line, "no ANSWER: line after this question's options (A. …)")
            question = _Question([(number, line)])
        else:
            question.text.append((number, line))
    if question.text or question.options:
        reading.problem(question.line, "no ANSWER: line for this question")
    questions, problems = checked_questions(file, reading.questions)
    if reading.problems or problems:
        found = reading.problems + problems
        raise FormatImportError(sorted(found, key=lambda problem: problem.line or 0))
    return make_draft(file, questions, deck=deck)


def read_aiken(
    path: Path,
    *,
    deck_id: str | None = None,
    title: str | None = None,
    source: str | None = None,
) -> DeckDraft:
    """Import the Aiken file at `path`; the deck id and title default to the file's name."""
    deck = deck_fields(path, deck_id, title, source)
    return parse_aiken(read_text(path), path.name, deck=deck)
