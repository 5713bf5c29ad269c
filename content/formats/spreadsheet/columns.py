"""The header row of a spreadsheet's CSV export: which column holds what, under the author's names.

Names ignore case, spaces, `_` and `-`; `text` means `question`, and `wrong 2`, `Wrong_2` and
`wrong answer 2` all mean `wrong2`. The right options are in one `answer` column, or in numbered
`answer1`, `answer2`… columns for questions with several; the wrong ones in one `wrong` column or
in numbered `wrong1`, `wrong2`… columns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from content.loader import DeckProblem

DELIMITERS = (",", ";", "\t")
REQUIRED = ("question", "explanation")
OPTIONAL = ("id", "topic", "source", "note")
_ALIASES = {"text": "question", "wrong options": "wrong", "wrong answers": "wrong"}
_WRONG_N = re.compile(r"wrong(?: options?| answers?)? ?([1-9][0-9]?)")
_ANSWER_N = re.compile(r"(?:right |correct )?answer ?([1-9][0-9]?)")
_NUMBERED = re.compile(r"(answer|wrong)([0-9]+)")
_EXPECTED = (
    "question, answer, wrong (or wrong1, wrong2, …), explanation, id, topic, source, note "
    "(answer1, answer2, … for several right options)"
)


@dataclass(frozen=True)
class Header:
    """The header row: each named column's position, and the author's own names."""

    index: dict[str, int]
    names: list[str]
    right: list[int]  # positions of the right-option columns, in order
    wrong: list[int]  # positions of the wrong-option columns, in order

    def name(self, column: str) -> str:
        """The author's name of a column, or the canonical name when it has none."""
        return self.names[self.index[column]] if column in self.index else column

    @property
    def wrong_in_one_cell(self) -> bool:
        """One `wrong` column whose cell lists every wrong option (else one option a cell)."""
        return "wrong" in self.index


def canonical(name: str) -> str:
    """The column a header cell names: `Wrong Answer 2` -> `wrong2`, `Text` -> `question`."""
    words = " ".join(re.sub(r"[\s_\-]+", " ", name).split()).casefold()
    if match := _WRONG_N.fullmatch(words):
        return f"wrong{int(match.group(1))}"
    if match := _ANSWER_N.fullmatch(words):
        return f"answer{int(match.group(1))}"
    return _ALIASES.get(words, words)


def detect_delimiter(text: str) -> str:
    """The delimiter found most often in the first line; `,` on a tie or when none is."""
    first = text.split("\n", 1)[0]
    return max(DELIMITERS, key=lambda delimiter: (first.count(delimiter), delimiter == ","))


def read_header(file: str, cells: list[str]) -> tuple[Header | None, list[DeckProblem]]:
    """The header of `cells`, or every mistake in it (reported on row 1)."""
    known = {*REQUIRED, *OPTIONAL, "answer", "wrong"}
    index: dict[str, int] = {}
    numbered: dict[str, list[tuple[int, int]]] = {"answer": [], "wrong": []}
    problems = []

    def problem(column: str, message: str) -> None:
        problems.append(DeckProblem(file, "row 1", column, message))

    for position, cell in enumerate(cells):
        name = cell.strip()
        column = canonical(name)
        match = _NUMBERED.fullmatch(column)
        if not name:
            problem(f"column {position + 1}", "the header cell is empty")
        elif column in index:
            problem(name, f"the column appears twice (also column {index[column] + 1})")
        elif column not in known and not match:
            problem(name, f"unknown column; expected {_EXPECTED}")
        else:
            index[column] = position
            if match:
                numbered[match.group(1)].append((int(match.group(2)), position))
    for column in REQUIRED:
        if column not in index:
            problem(column, "required column is missing")
    for column in ("answer", "wrong"):
        if column in index and numbered[column]:
            both = f"use one '{column}' column or columns {column}1, {column}2, …, not both"
            problem(column, both)
        elif column not in index and not numbered[column]:
            problem(column, f"required column is missing (or give columns {column}1, {column}2, …)")
    if problems:
        return None, problems

    def positions(column: str) -> list[int]:
        return [index[column]] if column in index else [pos for _, pos in sorted(numbered[column])]

    names = [cell.strip() for cell in cells]
    return Header(index, names, positions("answer"), positions("wrong")), []
