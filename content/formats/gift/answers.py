"""The answer block of a GIFT question, `{…}`: its kind, its options and their feedback.

Only multiple-choice questions are read. `=right ~wrong` is a question with one right option;
without any `=`, options weighted `~%50%right ~%-100%wrong` make a question with several (every
option of positive weight is right). As in Moodle, only `~` takes a weight: `=%5% more` is the
right option "%5% more". `#text` after an option is its feedback, `####text` at the
end of the block the question's general feedback. The kinds Moodle tells apart by their answer
block (essay, numerical, matching, true/false, short answer) are named, to be refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from content.formats.gift.escapes import Span, without_format

GENERAL_FEEDBACK = "####"
FULL_MARKS = 100.0
WEIGHT = re.compile(r"%(-?[0-9]+(?:\.[0-9]*)?)%")
_TRUE_FALSE = re.compile(r"(?:T|F|TRUE|FALSE)", re.IGNORECASE)


@dataclass(frozen=True)
class Option:
    """One option of a multiple-choice answer block."""

    text: str
    weight: float  # the percent of the marks choosing it gives
    marked_right: bool  # written with `=`
    feedback: str
    offset: int  # where it starts in its block


@dataclass(frozen=True)
class Choices:
    """A multiple-choice answer block read: its options and the general feedback."""

    options: tuple[Option, ...]
    general_feedback: str

    @property
    def one_right(self) -> bool:
        """Whether it is a one-answer question (some option is marked `=`)."""
        return any(option.marked_right for option in self.options)

    def right(self) -> list[Option]:
        """The right options: full marks in a one-answer question, else any positive weight."""
        if self.one_right:
            return [option for option in self.options if option.weight >= FULL_MARKS]
        return [option for option in self.options if option.weight > 0]

    def partial(self) -> list[Option]:
        """Options of a one-answer question that give part of the marks, neither right nor wrong."""
        if not self.one_right:
            return []
        return [option for option in self.options if 0 < option.weight < FULL_MARKS]


def split_general_feedback(block: Span) -> tuple[Span, str]:
    """The answer block without its `####general feedback`, and that feedback."""
    at = block.rfind(GENERAL_FEEDBACK)
    if at < 0:
        return block, ""
    return block.cut(0, at), block.cut(at + len(GENERAL_FEEDBACK)).text()


def unsupported_kind(answers: Span) -> str | None:
    """The kind of question an answer block (without general feedback) asks, when it is not
    multiple choice; None for multiple choice. The order is Moodle's."""
    masked = answers.masked.strip()
    if not masked:
        return "essay"
    if masked.startswith("#"):
        return "numerical"
    if "~" in masked:
        return None
    if "=" in masked and "->" in masked:
        return "matching"
    if _TRUE_FALSE.fullmatch(masked.split("#", 1)[0].strip()):
        return "true/false"
    return "short answer"


def _option(piece: Span) -> tuple[Option | None, str | None]:
    """The option of `piece` (its `=` or `~` first), or why it is not one."""
    marked_right = piece.raw.startswith("=")
    body = piece.cut(1)
    weight = FULL_MARKS if marked_right else 0.0
    lead = len(body.raw) - len(body.raw.lstrip())
    if not marked_right and (match := WEIGHT.match(body.raw, lead)):
        weight = float(match.group(1))
        body = body.cut(match.end())
    hash_at = body.find("#")
    text = without_format((body.cut(0, hash_at) if hash_at >= 0 else body).text())
    feedback = without_format(body.cut(hash_at + 1).text()) if hash_at >= 0 else ""
    if not text:
        return None, f"an empty option after {piece.raw[0]!r}"
    return Option(text, weight, marked_right, feedback, piece.stripped_start()), None


def read_choices(answers: Span, general_feedback: str) -> tuple[Choices, list[tuple[int, str]]]:
    """The options of a multiple-choice answer block, and (block offset, message) for each
    mistake in it."""
    marks = [at for at, char in enumerate(answers.masked) if char in "=~"]
    problems: list[tuple[int, str]] = []
    before = answers.cut(0, marks[0] if marks else None)
    if before.raw.strip():
        problems.append((before.stripped_start(), "text before the first option (= or ~)"))
    options: list[Option] = []
    for begin, end in zip(marks, [*marks[1:], len(answers.raw)], strict=True):
        option, problem = _option(answers.cut(begin, end))
        if option is not None:
            options.append(option)
        else:
            problems.append((answers.start + begin, problem or "not an option"))
    return Choices(tuple(options), general_feedback), problems
