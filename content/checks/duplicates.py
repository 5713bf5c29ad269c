"""Duplicate and near-duplicate questions, within a deck and across the decks of a folder.

Two stems are compared by their key words (`content.checks.similarity.key_words`: stop words
dropped, words stemmed, common paraphrases merged) as a Jaccard score: shared words over
all words. A rewording keeps most of a question's content words; two different questions
on one topic share the topic's words but each asks about its own. So a pair is reported
when the score is at least NEAR_DUPLICATE, or at least SAME_ANSWER_DUPLICATE when the two
right answers are also alike (a rewording usually keeps its answer; two questions on one
topic usually do not share theirs). The thresholds are pinned by tests of both kinds.
"""

from __future__ import annotations

from dataclasses import dataclass

from content.checks.similarity import jaccard, key_words, option_key
from content.models import Deck, Question

NEAR_DUPLICATE = 0.6
SAME_ANSWER_DUPLICATE = 0.4
SAME_ANSWER = 0.6


@dataclass(frozen=True)
class Stem:
    """What the comparison needs of one question, and where it lives."""

    file: str
    question_id: str
    key: str
    words: frozenset[str]
    answer_key: str
    answer_words: frozenset[str]

    @classmethod
    def of(cls, file: str, question: Question) -> Stem:
        return cls(
            file,
            question.id,
            option_key(question.text),
            frozenset(key_words(question.text)),
            option_key(" / ".join(question.right_options)),
            frozenset(key_words(" ".join(question.right_options))),
        )

    def name(self, seen_from: str) -> str:
        """The question id, prefixed with its file when seen from another file."""
        return self.question_id if self.file == seen_from else f"{self.file}: {self.question_id}"


def same_answer(first: Stem, second: Stem) -> bool:
    """The two right answers say the same thing, give or take a word."""
    if first.answer_key == second.answer_key:
        return True
    return jaccard(first.answer_words, second.answer_words) >= SAME_ANSWER


def similarity(first: Stem, second: Stem) -> float:
    """1.0 for the same stem; else the Jaccard score of the key words, 0.0 if under the bar."""
    if first.key == second.key:
        return 1.0
    smaller, larger = sorted((len(first.words), len(second.words)))
    if not larger or smaller / larger < SAME_ANSWER_DUPLICATE:
        return 0.0  # Jaccard is at most smaller / larger: skip the set operations
    score = jaccard(first.words, second.words)
    if score >= NEAR_DUPLICATE or (score >= SAME_ANSWER_DUPLICATE and same_answer(first, second)):
        return score
    return 0.0


def _message(other: Stem, score: float, file: str) -> str:
    if score == 1.0:
        return f"repeats the question of {other.name(file)}"
    return f"near-duplicate of {other.name(file)} ({score:.0%} of key words shared)"


def duplicate_problems(decks: list[tuple[str, Deck]]) -> dict[tuple[str, str], str]:
    """A message for each question that repeats or rewords an earlier one, by (file, id).

    Earlier means an earlier question of the same file, or any question of a file that
    comes before it in name order; the most similar earlier question is named.
    """
    seen: list[Stem] = []
    found = {}
    for file, deck in decks:
        for question in deck.questions:
            candidate = Stem.of(file, question)
            scored = [(similarity(candidate, other), index) for index, other in enumerate(seen)]
            score, index = max(scored, key=lambda pair: (pair[0], -pair[1]), default=(0.0, -1))
            if score > 0.0:
                found[(file, question.id)] = _message(seen[index], score, file)
            seen.append(candidate)
    return found
