"""Which question a chat gets next, and in which order its options are shown."""

from __future__ import annotations

from random import Random

from bot.core.model import PassState
from content.models import Deck, Question


def next_question(
    deck: Deck,
    state: PassState,
    rng: Random,
    avoid: frozenset[str] = frozenset(),
    topic: str | None = None,
) -> tuple[Question, int]:
    """A question the chat has not had in its current pass, and the pass it belongs to.

    When the pass has covered the whole deck a new one starts; its first question is not the
    one asked last, nor one in `avoid` (the questions of the running round), so neither a
    pass boundary nor a round ever shows the same question twice while others are left.

    With a `topic` only that topic's questions are drawn (the whole deck if it has none). Once
    the pass has had all of them one comes back, in the same pass, unless the pass is over.
    """
    pool = [q for q in deck.questions if q.topic == topic] or list(deck.questions)
    remaining = [q for q in pool if q.id not in state.asked and q.id not in avoid]
    if remaining:
        return rng.choice(remaining), state.pass_no
    whole_deck = len(pool) == len(deck.questions)
    pass_over = whole_deck or all(q.id in state.asked for q in deck.questions)
    fresh = [q for q in pool if q.id != state.last_asked and q.id not in avoid]
    return rng.choice(fresh or pool), state.pass_no + (1 if pass_over else 0)


def shuffled_option_order(option_count: int, rng: Random) -> tuple[int, ...]:
    """A random display order of option indexes (index 0 is the right answer)."""
    order = list(range(option_count))
    rng.shuffle(order)
    return tuple(order)
