"""Turn a plain-text practice test (a PDF export) into a draft deck for an author to finish.

The format: the title on the first non-empty line, then for each question the lines
`Question N`, the question text, `Accepted Answer`, the answer, `Answer`, the explanation.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Any

import yaml

PLACEHOLDER_TOPIC = "general"
ACCEPTED = "Accepted Answer"
EXPLANATION = "Answer"
_QUESTION = re.compile(r"Question (\d+)")
_ID_WORDS = 4
_STOPWORD_TEXT = (
    "a an and are as at be by can do does for from how if in into is it its of on or that the "
    "their these this to used uses using what when where which while who why with"
)
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())


class PracticeTestFormatError(ValueError):
    """The text does not follow the practice-test format; `line` is 1-based."""

    def __init__(self, line: int, message: str) -> None:
        self.line = line
        self.message = message
        super().__init__(f"line {line}: {message}")


@dataclass(frozen=True)
class ImportedQuestion:
    id: str
    topic: str
    text: str
    answer: str
    explanation: str


@dataclass(frozen=True)
class ImportedDeck:
    id: str
    title: str
    source: str
    questions: tuple[ImportedQuestion, ...]


@dataclass
class _Block:
    number: int
    line: int
    text: list[str]
    answer: list[str] | None = None
    explanation: list[str] | None = None


def slugify(text: str) -> str:
    """Lowercase ASCII words joined by hyphens: 'Multi-GPU & Scaling' -> 'multi-gpu-scaling'."""
    return "-".join(_words(text))


def _words(text: str) -> list[str]:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.findall(r"[a-z0-9]+", ascii_text.lower())


def _is_marker(line: str) -> bool:
    return line in (ACCEPTED, EXPLANATION) or _QUESTION.fullmatch(line) is not None


def _sections(lines: list[str]) -> list[list[str]]:
    """Runs of non-blank lines after each marker (text, answer or explanation)."""
    sections: list[list[str]] = [[]]
    for line in lines:
        if _is_marker(line):
            sections.append([])
        elif line:
            sections[-1].append(line)
    return [section for section in sections[1:] if section]


def _furniture(lines: list[str], title: str) -> tuple[set[str], str | None]:
    """Page headers and footers, and the most frequent one that is not the title.

    A line is furniture if it equals the title, or it occurs more than once in the file
    and is never the whole of a section (question text, answer or explanation), so a
    repeated answer like "NCCL" survives while a per-page footer does not.
    """
    counts = Counter(line for line in lines if line and not _is_marker(line))
    whole = {section[0] for section in _sections(lines) if len(section) == 1}
    repeated = [line for line, n in counts.most_common() if n > 1 and line not in whole]
    footers = [line for line in repeated if line != title]
    return {title, *repeated}, (footers[0] if footers else None)


def question_id(text: str, taken: set[str]) -> str:
    """A unique slug of the text's first content words; adds it to `taken`."""
    words = [word for word in _words(text) if word not in _STOPWORDS]
    base = "-".join(list(dict.fromkeys(words))[:_ID_WORDS]) or "question"
    candidate, suffix = base, 2
    while candidate in taken:
        candidate, suffix = f"{base}-{suffix}", suffix + 1
    taken.add(candidate)
    return candidate


def _blocks(numbered: list[tuple[int, str]], end: int) -> list[_Block]:
    blocks: list[_Block] = []
    for number, line in numbered:
        match = _QUESTION.fullmatch(line)
        if match:
            if blocks:
                _check_complete(blocks[-1], number)
            expected = len(blocks) + 1
            if int(match.group(1)) != expected:
                raise PracticeTestFormatError(
                    number, f"expected 'Question {expected}', found {line!r}"
                )
            blocks.append(_Block(expected, number, []))
        elif not blocks:
            raise PracticeTestFormatError(number, f"expected 'Question 1', found {line!r}")
        elif line == ACCEPTED:
            block = blocks[-1]
            if block.answer is not None:
                raise PracticeTestFormatError(number, f"second {ACCEPTED!r} in one question")
            block.answer = []
        elif line == EXPLANATION:
            block = blocks[-1]
            if block.answer is None or block.explanation is not None:
                raise PracticeTestFormatError(number, f"{EXPLANATION!r} must follow {ACCEPTED!r}")
            block.explanation = []
        elif blocks[-1].explanation is not None:
            blocks[-1].explanation.append(line)
        elif blocks[-1].answer is not None:
            blocks[-1].answer.append(line)
        else:
            blocks[-1].text.append(line)
    if not blocks:
        raise PracticeTestFormatError(end, "no questions: expected 'Question 1'")
    _check_complete(blocks[-1], end)
    return blocks


def _check_complete(block: _Block, at: int) -> None:
    where = f"Question {block.number} (line {block.line})"
    if not block.text:
        raise PracticeTestFormatError(block.line, f"{where} has no question text")
    if not block.answer:
        raise PracticeTestFormatError(at, f"{where} has no {ACCEPTED!r} before this line")
    if not block.explanation:
        raise PracticeTestFormatError(at, f"{where} has no {EXPLANATION!r} before this line")


def parse_practice_test(text: str) -> ImportedDeck:
    """Parse a practice test; lines of a section are joined with single spaces.

    Page headers and footers (see `_furniture`) are dropped wherever they appear; the
    most frequent footer becomes the deck's `source`, else the title does.
    """
    lines = [line.strip() for line in text.splitlines()]
    first = next((index for index, line in enumerate(lines) if line), None)
    if first is None:
        raise PracticeTestFormatError(1, "empty input: expected a title line")
    title = lines[first]
    if _is_marker(title):
        raise PracticeTestFormatError(first + 1, "expected a title line before the questions")
    furniture, footer = _furniture(lines[first + 1 :], title)
    numbered = [
        (index + 1, line)
        for index, line in enumerate(lines)
        if index > first and line and line not in furniture
    ]
    taken: set[str] = set()
    questions = []
    for block in _blocks(numbered, end=max(len(lines), 1)):
        question_text = " ".join(block.text)
        questions.append(
            ImportedQuestion(
                id=question_id(question_text, taken),
                topic=PLACEHOLDER_TOPIC,
                text=question_text,
                answer=" ".join(block.answer or []),
                explanation=" ".join(block.explanation or []),
            )
        )
    return ImportedDeck(slugify(title), title, footer or title, tuple(questions))


class _IndentedDumper(yaml.SafeDumper):
    """Indents list items under their key, as in the PRODUCT.md deck layout."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)


def _represent_text(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    # Multi-line text as a `|` block (PyYAML falls back to quotes where a block cannot hold it).
    style = "|" if "\n" in text else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_IndentedDumper.add_representer(str, _represent_text)


def dump_yaml(data: dict[str, Any]) -> str:
    """`data` as deck YAML: keys in the given order, lists indented, text unwrapped."""
    return yaml.dump(
        data, Dumper=_IndentedDumper, sort_keys=False, allow_unicode=True, width=1_000_000
    )


def to_yaml(deck: ImportedDeck) -> str:
    """The deck in the content/ layout, each question with an empty `wrong` list to fill in."""
    data: dict[str, Any] = {
        "id": deck.id,
        "title": deck.title,
        "source": deck.source,
        "questions": [
            {
                "id": question.id,
                "topic": question.topic,
                "text": question.text,
                "answer": question.answer,
                "wrong": [],
                "explanation": question.explanation,
            }
            for question in deck.questions
        ],
    }
    return dump_yaml(data)
