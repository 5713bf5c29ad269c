"""Topics of a deck: finding one from what a learner typed, and a learner's mastery of each.

Pure functions over a deck and what the learner did (`Learned` presses, due `Card`s); the use
case that reads them from storage is `bot.core.topics`.

Mastery is judged cautiously: the bar is the lower bound of the Wilson score interval (95%,
z = 1.96) of right/answered, so a topic answered 2 of 2 (bound 34%) ranks below one answered
17 of 20 (bound 64%), and a single lucky guess never looks like mastery.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta

from bot.core.model import Card, Learned
from content.models import Deck

WINDOW = timedelta(days=90)  # how far back answers count towards mastery
Z_95 = 1.96


def wilson_lower(correct: int, answered: int, z: float = Z_95) -> float:
    """The lower bound of the Wilson score interval of `correct` out of `answered` (0 if none)."""
    if answered <= 0:
        return 0.0
    correct = min(max(correct, 0), answered)
    p = correct / answered
    z2 = z * z
    centre = p + z2 / (2 * answered)
    margin = z * math.sqrt(p * (1 - p) / answered + z2 / (4 * answered * answered))
    return max(0.0, (centre - margin) / (1 + z2 / answered))


def normalized(name: str) -> str:
    """A topic name as matched: whitespace runs as one space, case folded."""
    return " ".join(name.split()).casefold()


def deck_topics(deck: Deck) -> dict[str, int]:
    """The deck's topics, sorted by name, with how many questions each has."""
    sizes = Counter(question.topic for question in deck.questions)
    return {topic: sizes[topic] for topic in sorted(sizes, key=lambda t: (normalized(t), t))}


@dataclass(frozen=True)
class NoSuchTopic:
    """`/quiz [N] <topic>` named no topic of the chat's deck (`candidates` empty) or several
    (the candidates): nothing was asked, nothing written."""

    query: str
    deck: Deck
    candidates: tuple[str, ...] = ()


def match_topic(topics: Iterable[str], query: str) -> list[str]:
    """The topics `query` names: the one whose name it is (any case), else those whose name
    starts with it. One topic: found; several: ambiguous; none: unknown."""
    wanted = normalized(query)
    if not wanted:
        return []
    names = list(dict.fromkeys(topics))
    exact = [topic for topic in names if normalized(topic) == wanted]
    if exact:
        return exact
    return [topic for topic in names if normalized(topic).startswith(wanted)]


@dataclass(frozen=True)
class TopicMastery:
    """A learner's record on one topic over the window, and their reviews due in it."""

    topic: str
    questions: int  # in the deck
    answered: int
    correct: int
    due: int

    @property
    def started(self) -> bool:
        return self.answered > 0

    @property
    def accuracy(self) -> float:
        return self.correct / self.answered if self.answered else 0.0

    @property
    def level(self) -> float:
        """The mastery shown: the Wilson lower bound of the accuracy (0 when not started)."""
        return wilson_lower(self.correct, self.answered)


@dataclass(frozen=True)
class Mastery:
    """A learner's mastery of each topic of a deck: the ones started, weakest first, then
    the ones not started (by name)."""

    deck: Deck
    topics: tuple[TopicMastery, ...]
    window: timedelta = WINDOW

    @property
    def due(self) -> int:
        return sum(item.due for item in self.topics)

    @property
    def started(self) -> tuple[TopicMastery, ...]:
        return tuple(item for item in self.topics if item.started)

    @property
    def weakest(self) -> TopicMastery | None:
        """The started topic to practise next, if any."""
        started = self.started
        return started[0] if started else None


def _weakest_first(item: TopicMastery) -> tuple[bool, float, float, int, str]:
    # Among equal bounds the surer weakness (more answers) comes first.
    return (not item.started, item.level, item.accuracy, -item.answered, normalized(item.topic))


def mastery_of(
    deck: Deck, history: Iterable[Learned], due: Iterable[Card], window: timedelta = WINDOW
) -> Mastery:
    """Each topic's right/answered from the learner's first presses (`history`, already cut to
    the window) and their due cards, mapped to topics through the deck. Presses and cards of
    questions the deck no longer has are left out."""
    topic_of = {question.id: question.topic for question in deck.questions}
    answered: Counter[str] = Counter()
    correct: Counter[str] = Counter()
    for press in history:
        topic = topic_of.get(press.question_id)
        if topic is not None:
            answered[topic] += 1
            correct[topic] += press.correct
    due_in: Counter[str] = Counter()
    for question_id in {card.question_id for card in due}:
        topic = topic_of.get(question_id)
        if topic is not None:
            due_in[topic] += 1
    items = [
        TopicMastery(topic, size, answered[topic], correct[topic], due_in[topic])
        for topic, size in deck_topics(deck).items()
    ]
    return Mastery(deck, tuple(sorted(items, key=_weakest_first)), window)


def resolve_topic(deck: Deck, query: str) -> str | NoSuchTopic:
    """The deck's topic that `query` names unambiguously, else why not."""
    found = match_topic(deck_topics(deck), query)
    if len(found) == 1:
        return found[0]
    return NoSuchTopic(query, deck, tuple(found))


def shortest_prefix(topics: Iterable[str], topic: str) -> str:
    """The shortest start of `topic`'s name that names it alone (its whole name if none)."""
    names = list(topics)
    name = " ".join(topic.split())
    for end in range(1, len(name)):
        if match_topic(names, name[:end]) == [topic]:
            return name[:end].rstrip()
    return name


def topic_size(deck: Deck, topic: str | None) -> int:
    """How many questions a round on `topic` (None: the whole deck) can ask without repeats."""
    if topic is None:
        return len(deck.questions)
    return sum(1 for question in deck.questions if question.topic == topic)
