"""`check-decks --strict`: the content rules of a deck worth studying, beyond what loads.

On top of the loader's checks it reports, as `file: question-id: field: message` (`-` for
the deck): a missing or non-URL `source`; a "choose N" stem that does not say N, or says a
number other than its count of `answers`; duplicate and near-duplicate questions within a
deck and across the decks of a folder; options that are the same after ignoring case and
punctuation; "all/none of the above" options; an explanation whose first sentence is
over FIRST_SENTENCE_LIMIT characters; a question where only the right answer repeats the
stem's key words; and the deck-level tells of `content.checks.tells`.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from content.checks.duplicates import duplicate_problems
from content.checks.picks import picks_problem
from content.checks.similarity import first_sentence, option_key, points_at_other_options, stem
from content.checks.tells import deck_tells, only_answer_echoes
from content.loader import NONE, DeckProblem, scan_decks
from content.models import Question

FIRST_SENTENCE_LIMIT = 200
_ARTICLES = frozenset({"a", "an", "the"})


def source_problem(source: str | None) -> str | None:
    """Why `source` is not a usable reference, or None if it is one."""
    if source is None:
        return "missing: give the URL of the primary document and the section"
    url = source.split()[0]
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return f"must start with an http(s) URL of the primary document, found {url!r}"
    return None


def _option_words(option: str) -> tuple[str, ...]:
    return tuple(stem(word) for word in option_key(option).split() if word not in _ARTICLES)


def _option_name(question: Question, index: int) -> str:
    if index < question.picks:
        return "answer" if question.answers is None else f"answers #{index + 1}"
    return f"wrong #{index - question.picks + 1}"


def option_problems(question: Question) -> list[tuple[str, str]]:
    """(field, message) for options that repeat another or point at the other options."""
    found = []
    seen: dict[tuple[str, ...], int] = {}
    for index, option in enumerate(question.options):
        field = _option_name(question, index)
        if points_at_other_options(option):
            found.append((field, f"{option!r} points at the other options; name a fact instead"))
        words = _option_words(option)
        if words in seen:
            found.append(
                (
                    field,
                    f"{option!r} is the same as {_option_name(question, seen[words])} "
                    "after ignoring case, punctuation, articles and plurals",
                )
            )
        else:
            seen[words] = index
    return found


def question_problems(question: Question) -> list[tuple[str, str]]:
    """(field, message) for every per-question rule `question` breaks."""
    found = []
    if (problem := source_problem(question.source)) is not None:
        found.append(("source", problem))
    found.extend(option_problems(question))
    if (problem := picks_problem(question)) is not None:
        found.append(("text", problem))
    first = first_sentence(question.explanation)
    if len(first) > FIRST_SENTENCE_LIMIT:
        found.append(
            (
                "explanation",
                f"the first sentence is {len(first)} characters, over {FIRST_SENTENCE_LIMIT}: "
                "lead with why the answer is right in one short sentence",
            )
        )
    if words := only_answer_echoes(question):
        found.append(
            (
                "answer",
                f"only the right answer repeats the question's key words ({', '.join(words)}); "
                "use them in a wrong option too, or reword",
            )
        )
    return found


def strict_problems(directory: Path) -> list[DeckProblem]:
    """Every problem `check_decks` reports, then the strict rules for the decks that load."""
    decks, problems = scan_decks(directory)
    duplicates = duplicate_problems(decks)
    for file, deck in decks:
        for question in deck.questions:
            found = question_problems(question)
            if (duplicate := duplicates.get((file, question.id))) is not None:
                found.insert(0, ("text", duplicate))
            problems.extend(DeckProblem(file, question.id, f, m) for f, m in found)
        problems.extend(DeckProblem(file, NONE, f, m) for f, m in deck_tells(deck))
    return problems
