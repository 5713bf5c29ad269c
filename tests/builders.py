"""Decks for tests, built in code: shared by the tests of the core, the edge and storage."""

from __future__ import annotations

from content.models import Deck, ExamBlock, Question


def simple_deck(size: int, deck_id: str = "deck") -> Deck:
    """`size` questions on one topic, ids q0, q1, …, three wrong options each."""
    questions = [
        Question(
            id=f"q{i}",
            topic="t",
            text=f"Question {i}?",
            answer=f"right {i}",
            wrong=[f"wrong {i}a", f"wrong {i}b", f"wrong {i}c"],
            explanation="because",
        )
        for i in range(size)
    ]
    return Deck(id=deck_id, title="Deck", source="test", questions=questions)


def topic_deck(sizes: dict[str, int], *, numbered: bool = False) -> Deck:
    """A deck with `sizes[topic]` questions in each topic, ids '<topic>-<n>' (or, `numbered`,
    't<index of the topic>-<n>', for topics that are no slugs)."""
    questions = [
        Question(
            id=f"t{index}-{n}" if numbered else f"{topic.lower().replace(' ', '-')}-{n}",
            topic=topic,
            text=f"{topic} question {n}?",
            answer=f"right {n}",
            wrong=[f"wrong {n}a", f"wrong {n}b", f"wrong {n}c"],
            explanation="because",
        )
        for index, (topic, size) in enumerate(sizes.items())
        for n in range(size)
    ]
    return Deck(id="topics", title="Topics", source="test", questions=questions)


def deck_of(sizes: dict[str, int], exam: ExamBlock | None = None) -> Deck:
    """A deck with `sizes[topic]` questions per topic, ids '<topic>-<n>', and an exam block."""
    questions = [
        Question(
            id=f"{topic}-{n}",
            topic=topic,
            text=f"Question {n} on {topic}?",
            answer=f"right {n}",
            wrong=[f"wrong {n}a", f"wrong {n}b", f"wrong {n}c"],
            explanation="because",
        )
        for topic, size in sizes.items()
        for n in range(size)
    ]
    return Deck(id="deck", title="Deck", source="test", questions=questions, exam=exam)
