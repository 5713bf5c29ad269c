"""What the GIFT and Aiken importers make: a draft deck, and their messages located by line.

A format may have no place for a field the deck needs (Aiken has no explanations and no topics):
the draft leaves it empty for the author to fill in, and every other rule of the deck is checked
as if it were filled. `DeckDraft.to_fill` says what is left; `DeckDraft.deck` loads the finished
draft as the loader would.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from content.formats.practice_test import dump_yaml, slugify
from content.loader import error_location, error_message
from content.models import Deck, Question

FILLABLE = ("topic", "explanation")
_PLACEHOLDER = "to fill in"
_BOM = "\ufeff"
# Where a validation error is: ("wrong", 1) for the second wrong option.
Location = tuple[str | int, ...]


@dataclass(frozen=True)
class LineMessage:
    """A mistake or a notice about an imported file, at a line when it has one."""

    file: str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        return f"{self.file}: {where}{self.message}"


class FormatImportError(Exception):
    """The file has mistakes; `problems` lists every one found."""

    def __init__(self, problems: Sequence[LineMessage]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(problem) for problem in self.problems))


@dataclass(frozen=True)
class DeckDraft:
    """An imported deck in the content/ layout, `FILLABLE` fields possibly left empty."""

    id: str
    title: str
    source: str
    questions: tuple[dict[str, Any], ...]
    notices: tuple[LineMessage, ...] = ()

    def data(self) -> dict[str, Any]:
        """The deck as plain data in the content/ layout (a copy)."""
        questions = [dict(question) for question in self.questions]
        return {"id": self.id, "title": self.title, "source": self.source, "questions": questions}

    def to_yaml(self) -> str:
        """The deck as deck YAML, as `import-deck` writes it."""
        return dump_yaml(self.data())

    def to_fill(self) -> dict[str, list[str]]:
        """Each `FILLABLE` field left empty, with the ids of the questions that lack it."""
        empty = {
            name: [str(q["id"]) for q in self.questions if q.get(name) == ""] for name in FILLABLE
        }
        return {name: ids for name, ids in empty.items() if ids}

    def deck(self) -> Deck:
        """The finished deck; raises pydantic's ValidationError while a field is left to fill."""
        return Deck.model_validate(self.data())


def field_name(location: Location) -> str:
    """A location for authors: ("wrong", 1) -> "wrong #2"."""
    return " ".join(f"#{part + 1}" if isinstance(part, int) else part for part in location)


def question_errors(raw: dict[str, Any]) -> list[tuple[Location, str]]:
    """Each mistake in a raw question as (location, message), its empty FILLABLE fields aside."""
    filled = {**raw, **{name: _PLACEHOLDER for name in FILLABLE if raw.get(name) == ""}}
    try:
        Question.model_validate(filled)
    except ValidationError as error:
        return [(error_location(detail), error_message(detail)) for detail in error.errors()]
    return []


def checked_questions(
    file: str,
    questions: Sequence[tuple[dict[str, Any], Callable[[Location], int]]],
) -> tuple[list[dict[str, Any]], list[LineMessage]]:
    """The questions that pass the deck rules, and a located problem for each mistake.

    Each question comes with a function giving the line of a location in it (a wrong option's
    own line, else the question's).
    """
    good: list[dict[str, Any]] = []
    problems: list[LineMessage] = []
    for raw, line_of in questions:
        errors = question_errors(raw)
        problems += [
            LineMessage(file, line_of(where), f"{field_name(where) or 'question'}: {message}")
            for where, message in errors
        ]
        if not errors:
            good.append(raw)
    return good, problems


def make_draft(
    file: str,
    questions: list[dict[str, Any]],
    *,
    deck: tuple[str, str, str],
    notices: Sequence[LineMessage] = (),
) -> DeckDraft:
    """The draft of checked `questions` under `deck` (id, title, source); raise
    FormatImportError when there are none or the deck's own fields break a rule."""
    if not questions:
        raise FormatImportError([LineMessage(file, None, "no questions in the file")])
    deck_id, title, source = deck
    filled = [{**q, **{name: _PLACEHOLDER for name in FILLABLE}} for q in questions]
    raw = {"id": deck_id, "title": title, "source": source, "questions": filled}
    try:
        Deck.model_validate(raw)
    except ValidationError as error:
        raise FormatImportError(
            [
                LineMessage(file, None, f"deck {field_name(error_location(d))}: {error_message(d)}")
                for d in error.errors()
            ]
        ) from None
    return DeckDraft(deck_id, title, source, tuple(questions), tuple(notices))


def read_text(path: Path) -> str:
    """The UTF-8 text of `path` without a byte order mark; FormatImportError if it is not."""
    try:
        return path.read_bytes().decode("utf-8").removeprefix(_BOM)
    except UnicodeDecodeError:
        raise FormatImportError([LineMessage(path.name, None, "not UTF-8 text")]) from None


def deck_fields(
    path: Path, deck_id: str | None, title: str | None, source: str | None
) -> tuple[str, str, str]:
    """The deck's id, title and source: those given, else from the file's name."""
    return (
        deck_id or slugify(path.stem) or "deck",
        title or path.stem,
        source or f"imported from {path.name}",
    )
