"""`import-deck` and `check-decks`: decks for authors, from spreadsheets and practice tests,
and checked."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

from content.checks import strict_problems
from content.formats.practice_test import (
    PracticeTestFormatError,
    dump_yaml,
    parse_practice_test,
    to_yaml,
)
from content.formats.spreadsheet import CsvImportError, deck_data, read_csv_deck
from content.loader import check_decks


@dataclasses.dataclass(frozen=True)
class ImportOptions:
    """What `import-deck` was asked for beyond the input file."""

    output: Path | None = None
    deck_id: str | None = None
    title: str | None = None
    source: str | None = None
    delimiter: str | None = None


def _write(text: str, output: Path | None, summary: str) -> None:
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf-8")
        print(f"wrote {output}: {summary}")


def _import_csv(source: Path, options: ImportOptions) -> int:
    try:
        deck = read_csv_deck(
            source,
            deck_id=options.deck_id,
            title=options.title,
            source=options.source,
            delimiter=options.delimiter,
        )
    except OSError as error:
        print(f"{source}: cannot read: {error.strerror}", file=sys.stderr)
        return 1
    except CsvImportError as error:
        for problem in error.problems:
            print(problem, file=sys.stderr)
        print(f"{len(error.problems)} problem(s) in {source}; nothing written", file=sys.stderr)
        return 1
    count = len(deck.questions)
    _write(dump_yaml(deck_data(deck)), options.output, f"{count} questions")
    return 0


def _import_practice_test(source: Path, options: ImportOptions) -> int:
    try:
        deck = parse_practice_test(source.read_text(encoding="utf-8"))
    except (OSError, PracticeTestFormatError) as error:
        print(f"{source}: {error}", file=sys.stderr)
        return 1
    deck = dataclasses.replace(
        deck,
        id=options.deck_id or deck.id,
        title=options.title or deck.title,
        source=options.source or deck.source,
    )
    summary = f"{len(deck.questions)} questions; fill in each `wrong:` list"
    _write(to_yaml(deck), options.output, summary)
    return 0


def import_deck(source: Path, options: ImportOptions | None = None) -> int:
    """A deck YAML from a spreadsheet's CSV export (`*.csv`) or a plain-text practice test."""
    options = options or ImportOptions()
    if source.suffix.lower() == ".csv":
        return _import_csv(source, options)
    return _import_practice_test(source, options)


def check(directory: Path, strict: bool = False) -> int:
    problems = strict_problems(directory) if strict else check_decks(directory)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} problem(s) in {directory}", file=sys.stderr)
        return 1
    rules = " and pass the strict content rules" if strict else ""
    print(f"all decks in {directory} are valid{rules}")
    return 0


def parse_delimiter(value: str) -> str:
    named = {"comma": ",", "semicolon": ";", "tab": "\t", "\\t": "\t"}
    delimiter = named.get(value.lower(), value)
    if len(delimiter) != 1:
        raise argparse.ArgumentTypeError("one character, or comma, semicolon or tab")
    return delimiter
