"""`import-deck` and `check-decks`: decks for authors, from spreadsheets, GIFT, Aiken and
practice tests, and checked."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Callable
from pathlib import Path

from bot.cli.output import write_file
from content.checks import strict_problems
from content.formats.aiken import read_aiken
from content.formats.drafts import DeckDraft, FormatImportError
from content.formats.gift import read_gift
from content.formats.practice_test import (
    PracticeTestFormatError,
    dump_yaml,
    parse_practice_test,
    to_yaml,
)
from content.formats.spreadsheet import CsvImportError, deck_data, read_csv_deck
from content.loader import check_decks

# Each format import-deck reads, and the file name endings that select it (any other: text).
IMPORT_FORMATS = {"csv": (".csv",), "gift": (".gift",), "aiken": (".aiken",), "text": ()}
DraftReader = Callable[..., DeckDraft]


@dataclasses.dataclass(frozen=True)
class ImportOptions:
    """What `import-deck` was asked for beyond the input file."""

    output: Path | None = None
    deck_id: str | None = None
    title: str | None = None
    source: str | None = None
    delimiter: str | None = None
    format_name: str | None = None


def _write(text: str, output: Path | None, summary: str) -> None:
    if output is None:
        sys.stdout.write(text)
        print(summary, file=sys.stderr)
    else:
        write_file(output, text.encode("utf-8"))
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


def _to_fill(draft: DeckDraft) -> str:
    """What the author must fill in: "; fill in `topic:` and `explanation:` of every question"."""
    fields: dict[tuple[str, ...], list[str]] = {}
    for name, ids in draft.to_fill().items():
        fields.setdefault(tuple(ids), []).append(f"`{name}:`")
    parts = [
        f"{' and '.join(names)} of "
        + ("every question" if len(ids) == len(draft.questions) else ", ".join(ids))
        for ids, names in fields.items()
    ]
    return f"; fill in {'; '.join(parts)}" if parts else ""


def _import_draft(source: Path, options: ImportOptions, reader: DraftReader) -> int:
    try:
        draft = reader(source, deck_id=options.deck_id, title=options.title, source=options.source)
    except OSError as error:
        print(f"{source}: cannot read: {error.strerror}", file=sys.stderr)
        return 1
    except FormatImportError as error:
        for problem in error.problems:
            print(problem, file=sys.stderr)
        print(f"{len(error.problems)} problem(s) in {source}; nothing written", file=sys.stderr)
        return 1
    for notice in draft.notices:
        print(notice, file=sys.stderr)
    _write(draft.to_yaml(), options.output, f"{len(draft.questions)} questions{_to_fill(draft)}")
    return 0


def import_format(source: Path, named: str | None = None) -> str:
    """The format named, else the one the file's name ends with (text when none does)."""
    suffix = source.suffix.lower()
    found = (name for name, suffixes in IMPORT_FORMATS.items() if suffix in suffixes)
    return named or next(found, "text")


def import_deck(source: Path, options: ImportOptions | None = None) -> int:
    """A deck YAML from a spreadsheet's CSV export (`*.csv`), a GIFT (`*.gift`) or Aiken
    (`*.aiken`) file, or a plain-text practice test."""
    options = options or ImportOptions()
    chosen = import_format(source, options.format_name)
    if chosen == "csv":
        return _import_csv(source, options)
    if chosen in ("gift", "aiken"):
        return _import_draft(source, options, read_gift if chosen == "gift" else read_aiken)
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
