"""`check-decks --strict` on "choose N" questions: the stem says how many to pick, and that
number is how many right options the question has; a one-answer stem says no such thing."""

from __future__ import annotations

import re

from content.models import Question

NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
# "Choose two.", "(Select 3)", "pick TWO answers": the instruction a "choose N" stem gives.
# ("Which two features…" is not one: a single answer may name a pair.)
_ASKS = re.compile(
    r"\b(?:choose|select|pick|mark)\s+(?:the\s+)?(?P<n>\d|" + "|".join(NUMBERS) + r")\b",
    re.IGNORECASE,
)


def asked_picks(text: str) -> int | None:
    """The number of options the stem asks the learner to pick, or None when it says none."""
    found = _ASKS.search(text)
    if found is None:
        return None
    word = found["n"].lower()
    return int(word) if word.isdigit() else NUMBERS[word]


def picks_problem(question: Question) -> str | None:
    """Why the stem and the number of right options disagree, or None."""
    asked = asked_picks(question.text)
    if question.picks == 1:
        if asked is not None and asked > 1:
            return f"the stem asks to choose {asked}, but the question has one `answer`"
        return None
    if asked is None:
        return (
            f"a question with {question.picks} right options must say so in the stem, "
            f'e.g. "Choose {question.picks}."'
        )
    if asked != question.picks:
        return f"the stem asks to choose {asked}, but `answers` has {question.picks}"
    return None
