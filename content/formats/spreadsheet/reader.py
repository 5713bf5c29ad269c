"""Import a deck from a spreadsheet's CSV export: one question per row, under a header row.

Columns, in any order (names ignore case, spaces, `_` and `-`):
  question, answer, explanation   required
  wrong                           all wrong options in one cell, one a line or split by "|"
  wrong1 … wrongN                 or one wrong option a column (empty cells are skipped)
  topic                           optional; "general" when absent or empty
  source, note                    optional
The file may start with a UTF-8 BOM, end lines with CRLF, quote cells that span lines,
and separate cells with `,`, `;` or tabs (the one found most often in the header row,
unless given). Every mistake is reported as `file: row N: column: message`, the rows
numbered as a spreadsheet numbers them (the header is row 1), and a file with any
mistake yields no deck.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from content.formats.practice_test import PLACEHOLDER_TOPIC, question_id, slugify
from content.loader import NONE, DeckProblem, error_location, error_message
from content.models import Deck, Question

DELIMITERS = (",", ";", "\t")
REQUIRED = ("question", "answer", "explanation")
OPTIONAL = ("topic", "source", "note")
_ALIASES = {"text": "question", "wrong options": "wrong", "wrong answers": "wrong"}
_WRONG_N = re.compile(r"wrong(?: options?| answers?)? ?([1-9][0-9]?)")
_WRONG_SPLIT = re.compile(r"\n|\|")
_NUMBERED = re.compile(r"wrong([0-9]+)")
_BOM = "\ufeff"


class CsvImportError(Exception):
    """The CSV file has mistakes; `problems` lists every one found."""

    def __init__(self, problems: Sequence[DeckProblem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(problem) for problem in self.problems))


@dataclass(frozen=True)
class _Header:
    """The header row: each canonical column's position, and the author's own names."""

    index: dict[str, int]
    names: list[str]
    wrong: list[int]  # positions of the wrong-option columns, in order

    def name(self, column: str) -> str:
        return self.names[self.index[column]] if column in self.index else column


def _canonical(name: str) -> str:
    words = " ".join(re.sub(r"[\s_\-]+", " ", name).split()).casefold()
    match = _WRONG_N.fullmatch(words)
    if match:
        return f"wrong{int(match.group(1))}"
    return _ALIASES.get(words, words)


def detect_delimiter(text: str) -> str:
    """The delimiter found most often in the first line; `,` on a tie or when none is."""
    first = text.split("\n", 1)[0]
    return max(DELIMITERS, key=lambda delimiter: (first.count(delimiter), delimiter == ","))


def _header(file: str, cells: list[str]) -> tuple[_Header | None, list[DeckProblem]]:
    known = {*REQUIRED, *OPTIONAL, "wrong"}
    index: dict[str, int] = {}
    numbered: list[tuple[int, int]] = []
    problems = []

    def problem(column: str, message: str) -> None:
        problems.append(DeckProblem(file, "row 1", column, message))

    for position, cell in enumerate(cells):
        name = cell.strip()
        column = _canonical(name)
        if not name:
            problem(f"column {position + 1}", "the header cell is empty")
        elif column in index:
            problem(name, f"the column appears twice (also column {index[column] + 1})")
        elif column not in known and not _NUMBERED.fullmatch(column):
            expected = "question, answer, wrong (or wrong1, wrong2, …), explanation, topic, source"
            problem(name, f"unknown column; expected {expected}, note")
        else:
            index[column] = position
            if match := _NUMBERED.fullmatch(column):
                numbered.append((int(match.group(1)), position))
    for column in REQUIRED:
        if column not in index:
            problem(column, "required column is missing")
    if "wrong" in index and numbered:
        problem("wrong", "use one 'wrong' column or columns wrong1, wrong2, …, not both")
    elif "wrong" not in index and not numbered:
        problem("wrong", "required column is missing (or give columns wrong1, wrong2, …)")
    if problems:
        return None, problems
    wrong = [index["wrong"]] if "wrong" in index else [pos for _, pos in sorted(numbered)]
    return _Header(index, [cell.strip() for cell in cells], wrong), []


def _clean(cell: str) -> str:
    return cell.replace("\r\n", "\n").replace("\r", "\n").strip()


def _wrong_options(header: _Header, cells: list[str]) -> list[tuple[str, str]]:
    """(option, column name) for each wrong option of a row, in order."""
    options: list[tuple[str, str]] = []
    for position in header.wrong:
        name = header.names[position]
        one_cell = "wrong" in header.index  # else wrong1..wrongN: one option a cell
        parts = _WRONG_SPLIT.split(cells[position]) if one_cell else [cells[position]]
        options.extend((part.strip(), name) for part in parts if part.strip())
    return options


def _duplicates(answer: str, wrong: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """(column, message) for each option repeating an earlier one, ignoring case and spaces."""
    seen = {" ".join(answer.split()).casefold(): "the answer"}
    found = []
    for number, (option, column) in enumerate(wrong, start=1):
        key = " ".join(option.split()).casefold()
        if key in seen:
            found.append((column, f"duplicate option: {option!r} repeats {seen[key]}"))
        else:
            seen[key] = f"wrong option {number}"
    return found


def _row(
    file: str, number: int, header: _Header, cells: list[str], taken: set[str]
) -> tuple[dict[str, Any] | None, list[DeckProblem]]:
    def problem(column: str, message: str) -> DeckProblem:
        return DeckProblem(file, f"row {number}", column, message)

    if len(cells) != len(header.names):
        count = f"has {len(cells)} cells, the header has {len(header.names)}"
        return None, [problem(NONE, f"{count}; check for a stray or missing delimiter")]
    values = {column: _clean(cells[position]) for column, position in header.index.items()}
    wrong = _wrong_options(header, [_clean(cell) for cell in cells])
    problems = []
    for column, message in (
        ("question", "empty question"),
        ("answer", "missing answer"),
        ("explanation", "missing explanation"),
    ):
        if not values[column]:
            problems.append(problem(header.name(column), message))
    if not wrong:
        wrong_name = header.names[header.wrong[0]]
        problems.append(problem(wrong_name, "needs at least 1 wrong option, found none"))
    elif values["answer"]:
        problems.extend(
            problem(column, message) for column, message in _duplicates(values["answer"], wrong)
        )
    if problems:
        return None, problems
    raw: dict[str, Any] = {
        "id": question_id(values["question"], taken),
        "topic": values.get("topic") or PLACEHOLDER_TOPIC,
        "text": values["question"],
        "answer": values["answer"],
        "wrong": [option for option, _ in wrong],
        "explanation": values["explanation"],
    }
    raw.update({key: values[key] for key in ("source", "note") if values.get(key)})
    try:
        Question.model_validate(raw)
    except ValidationError as error:
        return None, [_located(file, number, header, wrong, detail) for detail in error.errors()]
    return raw, []


def _located(
    file: str, number: int, header: _Header, wrong: list[tuple[str, str]], detail: ErrorDetails
) -> DeckProblem:
    loc = error_location(detail)
    field = str(loc[0]) if loc else NONE
    if field == "wrong" and len(loc) > 1 and isinstance(loc[1], int):
        column = wrong[loc[1]][1]
    else:
        column = header.name({"text": "question"}.get(field, field))
    return DeckProblem(file, f"row {number}", column, error_message(detail))


def parse_csv_deck(
    text: str,
    file: str,
    *,
    deck_id: str,
    title: str,
    source: str,
    delimiter: str | None = None,
) -> Deck:
    """The deck in `text` (a CSV export named `file`); raise CsvImportError on any mistake."""
    text = text.removeprefix(_BOM)
    rows = csv.reader(
        io.StringIO(text, newline=""), delimiter=delimiter or detect_delimiter(text), strict=True
    )
    try:
        records = list(rows)
    except csv.Error as error:
        raise CsvImportError(
            [DeckProblem(file, f"line {rows.line_num}", NONE, f"{error}: check the quoting")]
        ) from None
    if not records or not any(cell.strip() for cell in records[0]):
        raise CsvImportError([DeckProblem(file, NONE, NONE, "no header row: the file is empty")])
    header, problems = _header(file, records[0])
    if header is None:
        raise CsvImportError(problems)
    questions: list[dict[str, Any]] = []
    taken: set[str] = set()
    for number, cells in enumerate(records[1:], start=2):
        if not any(cell.strip() for cell in cells):
            continue  # a blank row
        raw, row_problems = _row(file, number, header, cells, taken)
        problems.extend(row_problems)
        if raw is not None:
            questions.append(raw)
    if not problems and not questions:
        problems.append(DeckProblem(file, NONE, NONE, "no questions below the header row"))
    if problems:
        raise CsvImportError(problems)
    try:
        return Deck.model_validate(
            {"id": deck_id, "title": title, "source": source, "questions": questions}
        )
    except ValidationError as error:
        raise CsvImportError(
            [
                DeckProblem(file, NONE, str(error_location(d)[0]), error_message(d))
                for d in error.errors()
            ]
        ) from None


def read_csv_deck(
    path: Path,
    *,
    deck_id: str | None = None,
    title: str | None = None,
    source: str | None = None,
    delimiter: str | None = None,
) -> Deck:
    """Import the CSV file at `path`; the deck id and title default to the file's name."""
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError:
        raise CsvImportError([DeckProblem(path.name, NONE, NONE, "not UTF-8 text")]) from None
    return parse_csv_deck(
        text,
        path.name,
        deck_id=deck_id or slugify(path.stem) or "deck",
        title=title or path.stem,
        source=source or f"imported from {path.name}",
        delimiter=delimiter,
    )


def deck_data(deck: Deck) -> dict[str, Any]:
    """The deck as plain data in the content/ layout, empty optional fields left out."""
    return deck.model_dump(exclude_none=True)
