"""Which question a chat gets next, and in which order its options are shown."""

from __future__ import annotations

from random import Random

from bot.core.model import PassState
from content.models import Deck, Question


def next_question(deck: Deck, state: PassState, rng: Random) -> tuple[Question, int]:
    """A question the chat has not had in its current pass, and the pass it belongs to.

    When the pass has covered the whole deck a new one starts; its first question is not the
    one asked last, so a pass boundary never shows the same question twice in a row.
    """
    remaining = [q for q in deck.questions if q.id not in state.asked]
    if remaining:
        return rng.choice(remaining), state.pass_no
    fresh = [q for q in deck.questions if q.id != state.last_asked] or list(deck.questions)
    return rng.choice(fresh), state.pass_no + 1


def shuffled_option_order(option_count: int, rng: Random) -> tuple[int, ...]:
    """A random display order of option indexes (index 0 is the right answer)."""
    order = list(range(option_count))
    rng.shuffle(order)
    return tuple(order)
