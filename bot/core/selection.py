"""Which question a chat gets next, and in which order its options are shown."""

from __future__ import annotations

from random import Random

from bot.core.model import PassState
from content.models import Deck, Question


def next_question(
    deck: Deck, state: PassState, rng: Random, avoid: frozenset[str] = frozenset()
) -> tuple[Question, int]:
    """A question the chat has not had in its current pass, and the pass it belongs to.

    When the pass has covered the whole deck a new one starts; its first question is not the
    one asked last, nor one in `avoid` (the questions of the running round), so neither a
    pass boundary nor a round ever shows the same question twice while others are left.
    """
    remaining = [q for q in deck.questions if q.id not in state.asked and q.id not in avoid]
    if remaining:
        return rng.choice(remaining), state.pass_no
    fresh = [q for q in deck.questions if q.id != state.last_asked and q.id not in avoid]
    return rng.choice(fresh or list(deck.questions)), state.pass_no + 1


def shuffled_option_order(option_count: int, rng: Random) -> tuple[int, ...]:
    """A random display order of option indexes (index 0 is the right answer)."""
    order = list(range(option_count))
    rng.shuffle(order)
    return tuple(order)
