"""Read a GIFT file (Moodle's question format) into a draft deck.

Each question block is `::title::text {answers}`: the title, when it makes a slug, becomes the
question's id (else the id is made from the text's first words); the text may go on after the
answer block (Moodle's "missing word" layout: the block becomes `_____`); a leading format marker
(`[html]`, `[moodle]`, `[plain]`, `[markdown]`) is dropped. The general feedback is the
explanation, or, without one, the right options' feedback. A question without either is
written with an empty `explanation:` for the author to fill in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from content.formats.drafts import (
    DeckDraft,
    FormatImportError,
    LineMessage,
    Location,
    checked_questions,
    make_draft,
)
from content.formats.gift.answers import Choices, read_choices, split_general_feedback
from content.formats.gift.answers import unsupported_kind as kind_of
from content.formats.gift.blocks import Block, blocks
from content.formats.gift.escapes import Span, unescape, without_format
from content.formats.practice_test import PLACEHOLDER_TOPIC, question_id, slugify

BLANK = "_____"
_SUPPORTED = "quizbot asks multiple-choice questions (=right ~wrong, or ~%50% weights)"


@dataclass
class _File:
    """What reading a file has found so far."""

    name: str
    topic: str = PLACEHOLDER_TOPIC
    taken: set[str] = field(default_factory=set)
    questions: list[tuple[dict[str, Any], Callable[[Location], int]]] = field(default_factory=list)
    problems: list[LineMessage] = field(default_factory=list)
    notices: list[LineMessage] = field(default_factory=list)

    def problem(self, line: int, message: str) -> None:
        self.problems.append(LineMessage(self.name, line, message))


def _question_id(title: str, text: str, taken: set[str]) -> str:
    """The title's slug when it makes one (made unique), else a slug of the text's first words."""
    base = slugify(title)
    if not base:
        return question_id(text, taken)
    candidate, suffix = base, 2
    while candidate in taken:
        candidate, suffix = f"{base}-{suffix}", suffix + 1
    taken.add(candidate)
    return candidate


def _explanation(file: _File, block: Block, choices: Choices) -> str:
    """The general feedback, else the right options' feedback; a notice for feedback left out."""
    right = choices.right()
    general = without_format(choices.general_feedback)
    kept = [] if general else [option for option in right if option.feedback]
    if any(option.feedback and option not in kept for option in choices.options):
        message = "feedback on options left out: quizbot shows one explanation a question"
        file.notices.append(LineMessage(file.name, block.line, f"{message} (####…)"))
    return general or "\n".join(option.feedback for option in kept)


def _choices(file: _File, block: Block, answers: Span) -> Choices | None:
    """The options of the answer block, or None after reporting why it cannot be asked."""
    answers, general = split_general_feedback(answers)
    kind = kind_of(answers)
    if kind is not None:
        file.problem(block.line, f"a {kind} question is not supported: {_SUPPORTED}")
        return None
    choices, mistakes = read_choices(answers, general)
    for offset, message in mistakes:
        file.problem(block.line_at(offset), message)
    for option in choices.partial():
        file.problem(
            block.line_at(option.offset),
            f"{option.text!r} gives part of the marks ({option.weight:g}%): in a question with "
            "one right option (=) the others are wrong (~)",
        )
    right = choices.right()
    too_many = choices.one_right and len(right) > 1
    if not right:
        file.problem(
            block.line, "no right option: mark it with =, or weigh several right ones ~%50%"
        )
    elif too_many:
        file.problem(
            block.line_at(right[1].offset),
            "more than one option marked right (=): weigh several right options ~%50% instead",
        )
    return None if mistakes or choices.partial() or not right or too_many else choices


def _split(file: _File, block: Block) -> tuple[str, str, Span] | None:
    """The block's title, its question text and its answer block, or None after a problem."""
    span = Span.of(block.text)
    title = ""
    if span.masked.startswith("::"):
        end = span.find("::", 2)
        if end < 0:
            file.problem(block.line, "the title's '::' is not closed by '::'")
            return None
        title, span = span.cut(2, end).text(), span.cut(end + 2)
    opening = span.find("{")
    if opening < 0:
        message = f"no answer block {{…}}: a description is not supported; {_SUPPORTED}"
        file.problem(block.line, message)
        return None
    closing = span.find("}", opening + 1)
    if closing < 0:
        file.problem(block.line_at(span.start + opening), "the answer block's '{' is not closed")
        return None
    after = span.cut(closing + 1)
    if (second := after.find("{")) >= 0:
        file.problem(block.line_at(after.start + second), "a second answer block {…}")
        return None
    text = unescape(span.raw[:opening])
    if after.text():
        text += BLANK + unescape(after.raw)
    text = without_format(text.strip())
    if not text:
        file.problem(block.line, "no question text before the answer block {…}")
        return None
    return title, text, span.cut(opening + 1, closing)


def _read_question(file: _File, block: Block) -> None:
    parts = _split(file, block)
    if parts is None:
        return
    title, text, answers = parts
    choices = _choices(file, block, answers)
    if choices is None:
        return
    right = choices.right()
    wrong = [option for option in choices.options if option not in right]
    raw: dict[str, Any] = {"id": _question_id(title, text, file.taken), "topic": file.topic}
    raw["text"] = text
    if len(right) == 1:
        raw["answer"] = right[0].text
    else:
        raw["answers"] = [option.text for option in right]
    raw["wrong"] = [option.text for option in wrong]
    raw["explanation"] = _explanation(file, block, choices)

    def line_of(location: Location) -> int:
        """The line of an option the location names (`answer`, `wrong #2`), else the block's."""
        name = str(location[0]) if location else ""
        index = location[1] if len(location) > 1 and isinstance(location[1], int) else None
        options = {"answers": right, "wrong": wrong}.get(name, [])
        if name == "answer":
            return block.line_at(right[0].offset)
        return block.line_at(options[index].offset) if index is not None else block.line

    file.questions.append((raw, line_of))


def parse_gift(text: str, file: str, *, deck: tuple[str, str, str]) -> DeckDraft:
    """The draft deck of the GIFT `text` (of the file named `file`) under `deck` (id, title,
    source); raise FormatImportError with every mistake found, each at its line."""
    reading = _File(file)
    for block, topic in blocks(text):
        if topic is not None:
            reading.topic = topic or PLACEHOLDER_TOPIC
        _read_question(reading, block)
    questions, problems = checked_questions(file, reading.questions)
    reading.problems += problems
    if reading.problems:
        raise FormatImportError(sorted(reading.problems, key=lambda p: p.line or 0))
    return make_draft(file, questions, deck=deck, notices=reading.notices)
