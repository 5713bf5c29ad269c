"""Deck-level tells: patterns that give the right answer away across a whole deck.

A single question whose answer is its longest option proves nothing: with four options
that happens a quarter of the time by chance. A deck where it happens in most questions
teaches test-wise guessing instead of the topic. Each tell counts the questions that show
it, compares the count with chance (each question's fair share is 1 / its number of
options) and reports the deck only when the count is both far above chance (more than
1.5 times the expected count) and unlikely by chance (an exact one-sided binomial test,
p < 0.05), and the deck has at least MIN_QUESTIONS questions to judge by.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from content.checks.similarity import key_word_pairs, key_words
from content.models import Deck, Question

MIN_QUESTIONS = 10
RATIO = 1.5
ALPHA = 0.05


@dataclass(frozen=True)
class Tell:
    """The outcome of one tell on one deck; `flagged` says whether to report it."""

    question_ids: tuple[str, ...]
    questions: int
    expected: float
    p_value: float

    @property
    def count(self) -> int:
        return len(self.question_ids)

    @property
    def flagged(self) -> bool:
        return (
            self.questions >= MIN_QUESTIONS
            and self.count > RATIO * self.expected
            and self.p_value < ALPHA
        )

    def describe(self, what: str) -> str:
        """`what` in N of M questions, with the fair share, the chance and the ids."""
        return (
            f"{what} in {self.count} of {self.questions} questions (fair share "
            f"{self.expected:.1f}, chance p={self.p_value:.3g}): {', '.join(self.question_ids)}"
        )


def tail_probability(chances: Sequence[float], at_least: int) -> float:
    """P(at least `at_least` successes) for independent trials with these success chances.

    The exact Poisson-binomial distribution: the plain binomial test when every question
    has the same number of options.
    """
    distribution = [1.0]
    for chance in chances:
        grown = [0.0] * (len(distribution) + 1)
        for successes, probability in enumerate(distribution):
            grown[successes] += probability * (1 - chance)
            grown[successes + 1] += probability * chance
        distribution = grown
    return min(1.0, sum(distribution[at_least:]))


def measure(deck: Deck, shows: Callable[[Question], bool]) -> Tell:
    """Count the questions of `deck` for which `shows` holds and test the count."""
    chances = [question.picks / len(question.options) for question in deck.questions]
    ids = tuple(question.id for question in deck.questions if shows(question))
    return Tell(ids, len(chances), sum(chances), tail_probability(chances, len(ids)))


def answer_is_longest(question: Question) -> bool:
    """The longest option is a right one, longer than every wrong option (ties do not
    count)."""
    longest_right = max(len(option) for option in question.right_options)
    return longest_right > max(len(option) for option in question.wrong)


def echoes(question: Question) -> list[int]:
    """How many of the stem's key words each option repeats, the answer first."""
    stem = set(key_words(question.text))
    return [len(stem & set(key_words(option))) for option in question.options]


def answer_echoes_most(question: Question) -> bool:
    """A right answer repeats more of the stem's key words than any wrong option."""
    counts = echoes(question)
    return max(counts[: question.picks]) > max(counts[question.picks :])


def only_answer_echoes(question: Question) -> list[str]:
    """The stem's key words (as written) the answer repeats if no wrong option repeats any."""
    stem = key_word_pairs(question.text)
    keys = {key for _, key in stem}
    if any(keys & set(key_words(option)) for option in question.wrong):
        return []
    shared = set(key_words(" ".join(question.right_options)))
    return list(dict.fromkeys(word for word, key in stem if key in shared))


def deck_tells(deck: Deck) -> list[tuple[str, str]]:
    """(field, message) for each deck-level tell `deck` shows."""
    found = []
    longest = measure(deck, answer_is_longest)
    if longest.flagged:
        found.append(("answer", longest.describe("the right answer is the longest option")))
    echo = measure(deck, answer_echoes_most)
    if echo.flagged:
        what = "the right answer repeats more of the question's key words than any wrong option"
        found.append(("answer", echo.describe(what)))
    return found
