"""Read the rows of a spreadsheet's CSV export into a deck, each mistake named by row and column."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from content.formats.practice_test import PLACEHOLDER_TOPIC, question_id, slugify
from content.formats.spreadsheet.columns import Header, detect_delimiter, read_header
from content.loader import NONE, DeckProblem, error_location, error_message
from content.models import Deck, Question

_WRONG_SPLIT = re.compile(r"\n|\|")
_BOM = "\ufeff"
# (option, the author's name of its column)
Options = list[tuple[str, str]]


class CsvImportError(Exception):
    """The CSV file has mistakes; `problems` lists every one found."""

    def __init__(self, problems: Sequence[DeckProblem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(problem) for problem in self.problems))


@dataclass
class _Ids:
    """The question ids of the file: those its `id` column gives (with their row), and all taken."""

    given: dict[str, int] = field(default_factory=dict)
    taken: set[str] = field(default_factory=set)


def _clean(cell: str) -> str:
    return cell.replace("\r\n", "\n").replace("\r", "\n").strip()


def _options(header: Header, cells: list[str], positions: list[int], split: bool) -> Options:
    """(option, column name) for each option in the columns at `positions`, in order."""
    options: Options = []
    for position in positions:
        name = header.names[position]
        parts = _WRONG_SPLIT.split(cells[position]) if split else [cells[position]]
        options.extend((part.strip(), name) for part in parts if part.strip())
    return options


def _duplicates(right: Options, wrong: Options) -> list[tuple[str, str]]:
    """(column, message) for each option repeating an earlier one, ignoring case and spaces."""
    one = len(right) == 1
    labelled = [
        (option, column, "the answer" if one else f"right option {number}")
        for number, (option, column) in enumerate(right, start=1)
    ]
    labelled += [
        (option, column, f"wrong option {number}")
        for number, (option, column) in enumerate(wrong, start=1)
    ]
    seen: dict[str, str] = {}
    found = []
    for option, column, label in labelled:
        key = " ".join(option.split()).casefold()
        if key in seen:
            found.append((column, f"duplicate option: {option!r} repeats {seen[key]}"))
        else:
            seen[key] = label
    return found


def _row_id(values: dict[str, str], number: int, ids: _Ids) -> tuple[str, str | None]:
    """The row's question id, and why it cannot be used (None when it can)."""
    given = values.get("id", "")
    if not given:
        return question_id(values["question"], ids.taken), None
    if ids.given.get(given, number) != number:
        return given, f"{given!r} is already the id of row {ids.given[given]}"
    return given, None


def _row(
    file: str, number: int, header: Header, cells: list[str], ids: _Ids
) -> tuple[dict[str, Any] | None, list[DeckProblem]]:
    def problem(column: str, message: str) -> DeckProblem:
        return DeckProblem(file, f"row {number}", column, message)

    if len(cells) != len(header.names):
        count = f"has {len(cells)} cells, the header has {len(header.names)}"
        return None, [problem(NONE, f"{count}; check for a stray or missing delimiter")]
    cells = [_clean(cell) for cell in cells]
    values = {column: cells[position] for column, position in header.index.items()}
    right = _options(header, cells, header.right, split=False)
    wrong = _options(header, cells, header.wrong, split=header.wrong_in_one_cell)
    problems = []
    if not values["question"]:
        problems.append(problem(header.name("question"), "empty question"))
    if not right:
        problems.append(problem(header.names[header.right[0]], "missing answer"))
    if not values["explanation"]:
        problems.append(problem(header.name("explanation"), "missing explanation"))
    if not wrong:
        wrong_name = header.names[header.wrong[0]]
        problems.append(problem(wrong_name, "needs at least 1 wrong option, found none"))
    elif right:
        problems.extend(problem(column, message) for column, message in _duplicates(right, wrong))
    if problems:
        return None, problems
    qid, taken = _row_id(values, number, ids)
    if taken is not None:
        return None, [problem(header.name("id"), taken)]
    raw: dict[str, Any] = {"id": qid, "topic": values.get("topic") or PLACEHOLDER_TOPIC}
    raw["text"] = values["question"]
    if len(right) == 1:
        raw["answer"] = right[0][0]
    else:
        raw["answers"] = [option for option, _ in right]
    raw["wrong"] = [option for option, _ in wrong]
    raw["explanation"] = values["explanation"]
    raw.update({key: values[key] for key in ("source", "note") if values.get(key)})
    try:
        Question.model_validate(raw)
    except ValidationError as error:
        located = [_located(file, number, header, right, wrong, d) for d in error.errors()]
        return None, located
    return raw, []


def _located(
    file: str, number: int, header: Header, right: Options, wrong: Options, detail: ErrorDetails
) -> DeckProblem:
    loc = error_location(detail)
    name = str(loc[0]) if loc else NONE
    if name in ("wrong", "answers") and len(loc) > 1 and isinstance(loc[1], int):
        column = (wrong if name == "wrong" else right)[loc[1]][1]
    elif name in ("answer", "answers"):
        column = header.names[header.right[0]]
    else:
        column = header.name({"text": "question"}.get(name, name))
    return DeckProblem(file, f"row {number}", column, error_message(detail))


def _given_ids(header: Header, records: list[list[str]]) -> _Ids:
    """The ids the `id` column gives, each with the first row giving it; all of them taken."""
    ids = _Ids()
    position = header.index.get("id")
    for number, cells in enumerate(records[1:], start=2):
        if position is not None and position < len(cells) and (given := _clean(cells[position])):
            ids.given.setdefault(given, number)
            ids.taken.add(given)
    return ids


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
    header, problems = read_header(file, records[0])
    if header is None:
        raise CsvImportError(problems)
    questions: list[dict[str, Any]] = []
    ids = _given_ids(header, records)
    for number, cells in enumerate(records[1:], start=2):
        if not any(cell.strip() for cell in cells):
            continue  # a blank row
        raw, row_problems = _row(file, number, header, cells, ids)
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
    """The deck as plain data in the content/ layout, empty and default fields left out."""
    return deck.model_dump(exclude_none=True, exclude_defaults=True)
