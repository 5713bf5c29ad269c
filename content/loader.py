"""Load and check deck files, reporting every mistake as `file: question-id: field: message`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError
from pydantic_core import ErrorDetails

from content.models import Deck

DEFAULT_CONTENT_DIR = Path(__file__).parent
DECK_SUFFIXES = (".yaml", ".yml")
NONE = "-"  # question id or field of a problem that concerns the whole deck or file

# Pydantic's wording is written for programmers; authors get these instead.
_MESSAGES = {
    "missing": "required field is missing",
    "extra_forbidden": "unknown key",
    "string_too_short": "must not be empty",
    "string_type": "must be text (put it in quotes if YAML reads it as a number or yes/no)",
    "list_type": "must be a list",
    "model_type": "must be a mapping of keys to values",
}


@dataclass(frozen=True)
class DeckProblem:
    """One mistake in a deck file."""

    file: str
    question_id: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.question_id}: {self.field}: {self.message}"


class DeckError(Exception):
    """One or more deck files are broken; `problems` lists every mistake found."""

    def __init__(self, problems: Iterable[DeckProblem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(problem) for problem in self.problems))


class _DeckYamlLoader(yaml.SafeLoader):
    """A safe loader that rejects duplicate keys, which plain YAML silently overwrites."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[str] = set()
        for key_node, _ in node.value:
            if key_node.tag != "tag:yaml.org,2002:str":
                continue  # merge keys (<<) and non-text keys are left to the base loader
            key = self.construct_scalar(key_node)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r}", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def _yaml_problem(file: str, error: yaml.YAMLError) -> DeckProblem:
    if isinstance(error, yaml.MarkedYAMLError) and error.problem_mark is not None:
        mark = error.problem_mark
        message = f"invalid YAML at line {mark.line + 1}, column {mark.column + 1}: {error.problem}"
    else:
        message = f"invalid YAML: {error}"
    return DeckProblem(file, NONE, NONE, message)


def _raw_question_id(raw: dict[str, Any], index: int) -> str:
    questions = raw.get("questions")
    if isinstance(questions, list) and index < len(questions):
        question = questions[index]
        if isinstance(question, dict):
            qid = question.get("id")
            if isinstance(qid, str) and qid.strip():
                return qid.strip()
    return f"#{index + 1}"


def _field_name(parts: Sequence[str | int]) -> str:
    # List positions are 1-based for authors: ("wrong", 0) -> "wrong #1".
    words = [f"#{part + 1}" if isinstance(part, int) else part for part in parts]
    return " ".join(words) or NONE


def _validation_problems(
    file: str, raw: dict[str, Any], error: ValidationError
) -> list[DeckProblem]:
    return [_detail_problem(file, raw, detail) for detail in error.errors(include_url=False)]


def error_location(detail: ErrorDetails) -> tuple[str | int, ...]:
    """Where a validation error is: pydantic's location plus a located error's `at`."""
    ctx = detail.get("ctx") or {}
    return (*detail["loc"], *ctx.get("at", ()))


def error_message(detail: ErrorDetails) -> str:
    """A validation error in words for authors."""
    return _MESSAGES.get(detail["type"], detail["msg"])


def _detail_problem(file: str, raw: dict[str, Any], detail: ErrorDetails) -> DeckProblem:
    loc = error_location(detail)
    message = error_message(detail)
    if len(loc) >= 2 and loc[0] == "questions" and isinstance(loc[1], int):
        return DeckProblem(file, _raw_question_id(raw, loc[1]), _field_name(loc[2:]), message)
    return DeckProblem(file, NONE, _field_name(loc), message)


def _read(path: Path) -> tuple[Deck | None, list[DeckProblem]]:
    file = path.name
    try:
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=_DeckYamlLoader)
    except yaml.YAMLError as error:
        return None, [_yaml_problem(file, error)]
    except UnicodeDecodeError:
        return None, [DeckProblem(file, NONE, NONE, "not UTF-8 text")]
    except OSError as error:
        return None, [DeckProblem(file, NONE, NONE, f"cannot read: {error.strerror}")]
    if raw is None:
        return None, [DeckProblem(file, NONE, NONE, "file is empty")]
    if not isinstance(raw, dict):
        return None, [
            DeckProblem(file, NONE, NONE, "must be a mapping with id, title, source and questions")
        ]
    try:
        deck = Deck.model_validate(raw)
    except ValidationError as error:
        return None, _validation_problems(file, raw, error)
    problems = image_problems(path, deck)
    return (None, problems) if problems else (deck, [])


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Telegram takes photos up to 10 MB; a diagram is far smaller, and every ask uploads it.
MAX_IMAGE_BYTES = 5 * 1024 * 1024


def image_problems(path: Path, deck: Deck) -> list[DeckProblem]:
    """Each `image`/`explanation_image` that is not a PNG file beside the deck file."""
    problems = []
    for question in deck.questions:
        for field, name in (
            ("image", question.image),
            ("explanation_image", question.explanation_image),
        ):
            if name is None:
                continue
            image = path.parent / name
            why = None
            if not image.is_file():
                why = f"no file {name} beside the deck"
            elif image.stat().st_size > MAX_IMAGE_BYTES:
                why = f"{name} is over {MAX_IMAGE_BYTES // 2**20} MB"
            else:
                with image.open("rb") as opened:
                    if opened.read(len(PNG_SIGNATURE)) != PNG_SIGNATURE:
                        why = f"{name} is not a PNG file"
            if why is not None:
                problems.append(DeckProblem(path.name, question.id, field, why))
    return problems


def load_deck(path: Path) -> Deck:
    """Load one deck file; raise DeckError listing every mistake in it."""
    deck, problems = _read(path)
    if deck is None:
        raise DeckError(problems)
    return deck


def scan_decks(directory: Path) -> tuple[list[tuple[str, Deck]], list[DeckProblem]]:
    """Every deck that loads from `directory` with its file name, and every problem found.

    The problems are those `load_decks` raises; a file with problems contributes none of
    its decks, and a deck whose id is already taken is left out too.
    """
    if not directory.is_dir():
        return [], [DeckProblem(str(directory), NONE, NONE, "not a directory")]
    paths = sorted(
        (path for path in directory.iterdir() if path.suffix in DECK_SUFFIXES and path.is_file()),
        key=lambda path: path.name,
    )
    if not paths:
        message = "no deck files (*.yaml, *.yml) found"
        return [], [DeckProblem(str(directory), NONE, NONE, message)]
    decks: list[tuple[str, Deck]] = []
    files: dict[str, str] = {}
    problems: list[DeckProblem] = []
    for path in paths:
        deck, file_problems = _read(path)
        problems.extend(file_problems)
        if deck is None:
            continue
        if deck.id in files:
            message = f"deck id {deck.id!r} is already used by {files[deck.id]}"
            problems.append(DeckProblem(path.name, NONE, "id", message))
            continue
        decks.append((path.name, deck))
        files[deck.id] = path.name
    return decks, problems


def load_decks(directory: Path) -> dict[str, Deck]:
    """Load every `*.yaml`/`*.yml` file directly in `directory`, keyed by deck id.

    Raises one DeckError with the problems of all files, duplicate deck ids across
    files, and a missing or empty directory.
    """
    decks, problems = scan_decks(directory)
    if problems:
        raise DeckError(problems)
    return {deck.id: deck for _, deck in decks}


def check_decks(directory: Path) -> list[DeckProblem]:
    """Return every problem `load_decks(directory)` would raise; empty when all decks are fine."""
    try:
        load_decks(directory)
    except DeckError as error:
        return error.problems
    return []
