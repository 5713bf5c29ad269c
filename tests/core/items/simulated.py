"""Simulated learners answering a deck with items of known quality, written through the store.

Two hundred learners with normally distributed abilities, in four group chats that each get
every question once (each chat its own option order). Item behaviours:

- `good-1` … `good-4`: the chance of the right answer rises with ability; wrong picks are
  spread evenly over the three wrong options.
- `miskeyed`: the option keyed right is picked mostly by weak learners; strong ones pick
  wrong option 1 (the one that is really right).
- `easy`: nearly everyone is right.
- `dead`: discriminates well, but nobody ever picks wrong option 3.
- `unasked`: in the deck, never asked.

Then the learners of the first chat answer `easy` a second time, all wrongly: as second answers
these must not count.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from random import Random

from bot.core.model import AskDraft, AskOrigin, ChatKind, ChatRef, Player
from bot.core.rules.periods import period_keys
from content.models import Deck, Question
from storage.sqlite import SqliteStore

DECK_ID = "sim"
LEARNERS = 200
CHATS = 4
START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ZONE = UTC
ORDERS = [(0, 1, 2, 3), (3, 2, 1, 0), (1, 3, 0, 2), (2, 0, 3, 1)]

Pick = Callable[[float, Random], int]


def _logistic(x: float) -> float:
    return 1 / (1 + math.exp(-x))


def _good(difficulty: float) -> Pick:
    def pick(ability: float, rng: Random) -> int:
        if rng.random() < _logistic(1.8 * (ability - difficulty)):
            return 0
        return rng.randint(1, 3)

    return pick


def _miskeyed(ability: float, rng: Random) -> int:
    if rng.random() < _logistic(-2.0 * ability - 1.0):
        return 0
    return 1 if rng.random() < 0.85 else rng.randint(2, 3)


def _easy(ability: float, rng: Random) -> int:
    return 0 if rng.random() < _logistic(1.5 * ability + 4.0) else rng.randint(1, 3)


def _dead(ability: float, rng: Random) -> int:
    return 0 if rng.random() < _logistic(1.8 * ability) else rng.randint(1, 2)


ITEMS: dict[str, Pick] = {
    "good-1": _good(0.0),
    "good-2": _good(-0.5),
    "good-3": _good(0.3),
    "good-4": _good(0.0),
    "miskeyed": _miskeyed,
    "easy": _easy,
    "dead": _dead,
}


def sim_deck(script_text: str = "Which option is right?") -> Deck:
    """The simulated deck; `good-1`'s text is `script_text` (to test escaping)."""
    questions = [
        Question(
            id=qid,
            topic="sim",
            text=script_text if qid == "good-1" else f"Question {qid}?",
            answer=f"{qid} right",
            wrong=[f"{qid} wrong {n}" for n in (1, 2, 3)],
            explanation="Because.",
        )
        for qid in [*ITEMS, "unasked"]
    ]
    return Deck(id=DECK_ID, title="Simulated deck", source="tests", questions=questions)


def _chat(index: int) -> ChatRef:
    return ChatRef(-1000 - index, ChatKind.SUPERGROUP, f"Chat {index}")


async def _ask_everyone(
    store: SqliteStore,
    chat: ChatRef,
    question_id: str,
    order: tuple[int, ...],
    at: datetime,
    choices: dict[Player, int],
    pass_no: int = 1,
) -> None:
    """One ask in the chat; each player picks a deck option, all in one transaction."""
    draft = AskDraft(
        chat_id=chat.id,
        thread_id=None,
        deck_id=DECK_ID,
        question_id=question_id,
        pass_no=pass_no,
        option_order=order,
        asked_at=at,
        closes_at=None,
        origin=AskOrigin.QUIZ,
    )
    async with store.transaction() as writes:
        await writes.upsert_chat(chat, at)
        ask = await writes.create_ask(draft)
        for n, (player, option) in enumerate(choices.items()):
            when = at + timedelta(seconds=5 + n % 20)
            position = order.index(option)
            periods = period_keys(when, ZONE)
            await writes.record_answer(
                ask, player, position, option == 0, when, close=False, periods=periods
            )


async def simulate(store: SqliteStore, seed: int = 11) -> None:
    """Write the simulated history (see the module docstring) into `store`."""
    rng = Random(seed)
    learners = [(Player(1000 + n, f"L{n}"), rng.gauss(0, 1)) for n in range(LEARNERS)]
    at = START
    for index in range(CHATS):
        chat, order = _chat(index), ORDERS[index]
        members = learners[index::CHATS]
        for question_id, pick in ITEMS.items():
            at += timedelta(hours=1)
            choices = {player: pick(ability, rng) for player, ability in members}
            await _ask_everyone(store, chat, question_id, order, at, choices)
    at += timedelta(days=1)
    again = {player: 1 for player, _ in learners[::CHATS]}
    await _ask_everyone(store, _chat(0), "easy", ORDERS[0], at, again, pass_no=2)
