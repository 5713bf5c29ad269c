"""Write a deck as Aiken, Moodle's simplest question format, for content/formats/aiken.py or
Moodle to read.

Aiken holds a one-line text, its options `A. …` and the one right option's letter: a question
with several right options is left out, as is one whose text would read as an option or an
`ANSWER:` line; line breaks become spaces. The options keep the deck's order, the right one first
(`ANSWER: A`), so that reading the file back gives the same question: Moodle shuffles them when
it asks. Aiken has no ids, topics, explanations, sources or notes.
"""

from __future__ import annotations

from content.formats.aiken import ANSWER, OPTION
from content.formats.export.result import Exported, left_out, letter, one_line
from content.models import Deck, Question

HOLDS: tuple[str, ...] = ()


def _why_not(question: Question) -> str | None:
    """Why Aiken cannot hold the question, or None when it can."""
    if question.picks > 1:
        return f"it has {question.picks} right options; Aiken holds one"
    text = one_line(question.text)
    if OPTION.fullmatch(text) or ANSWER.match(text):
        return "its text would read as an option or an ANSWER: line"
    return None


def write_aiken(deck: Deck) -> Exported:
    """The deck as an Aiken file, with the questions it cannot hold left out."""
    lines: list[str] = []
    held: list[Question] = []
    skipped: list[tuple[str, str]] = []
    for question in deck.questions:
        why = _why_not(question)
        if why is not None:
            skipped.append((question.id, why))
            continue
        held.append(question)
        options = question.options
        lines.append(one_line(question.text))
        lines += [f"{letter(i)}. {one_line(option)}" for i, option in enumerate(options)]
        lines += [f"ANSWER: {letter(options.index(question.right_options[0]))}", ""]
    content = "\n".join(lines).encode("utf-8")
    return Exported(content, len(held), tuple(skipped), left_out(held, HOLDS))
