"""Write a deck as GIFT, Moodle's question format, for content/formats/gift/ or Moodle to read.

Each topic opens a `$CATEGORY:`; each question is `::id::[plain]text {…}` with its options one a
line (`=right ~wrong`, or `~%50%right ~%-100%wrong` for a question with several right options)
and the explanation as general feedback (`####…`). `[plain]` tells Moodle the text is plain
text, as deck text is (the options follow the text's format). The options keep the deck's order,
the right ones first, so that reading the file back gives the same question: Moodle shuffles
them when it asks. GIFT has no place for a source or a note.
"""

from __future__ import annotations

from content.formats.export.result import Exported, left_out, one_line
from content.formats.gift.answers import FULL_MARKS, GENERAL_FEEDBACK, WEIGHT
from content.formats.gift.blocks import CATEGORY
from content.formats.gift.escapes import FORMAT, escape
from content.models import Deck, Question

HOLDS = ("id", "topic", "explanation")
PLAIN = "[plain]"


def _option(option: str) -> str:
    """An option as GIFT writes it; one that starts like a format marker gets `[plain]` first."""
    return (PLAIN if FORMAT.match(option) else "") + escape(option)


def _weight(share: float) -> str:
    """A weight as Moodle writes it: 50, 33.33333, -100."""
    return f"{share:.5f}".rstrip("0").rstrip(".")


def _question(question: Question) -> list[str]:
    right = set(question.right_options)
    share = _weight(FULL_MARKS / len(right))
    lines = [f"::{question.id}::{PLAIN}{escape(question.text)} {{"]
    for option in question.options:
        if question.picks == 1:
            # A wrong option that starts like a weight (`%5% more`) is given one, `%0%`.
            mark = "=" if option in right else "~%0%" if WEIGHT.match(option) else "~"
        else:
            mark = f"~%{share}%" if option in right else f"~%{_weight(-FULL_MARKS)}%"
        lines.append(f"\t{mark}{_option(option)}")
    lines += [f"\t{GENERAL_FEEDBACK}{PLAIN}{escape(question.explanation)}", "}", ""]
    return lines


def write_gift(deck: Deck) -> Exported:
    """The deck as a GIFT file."""
    lines = [
        f"// {one_line(deck.title)} (deck {deck.id}), written by quizbot's export-deck",
        f"// source: {one_line(deck.source)}",
        "",
    ]
    topic = None
    for question in deck.questions:
        if question.topic != topic:
            topic = question.topic
            lines += [f"{CATEGORY} {one_line(topic).replace('/', '//')}", ""]
        lines += _question(question)
    content = "\n".join(lines).encode("utf-8")
    return Exported(content, len(deck.questions), left_out=left_out(deck.questions, HOLDS))
