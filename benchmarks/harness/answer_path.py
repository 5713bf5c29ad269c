"""The group answer path, timed on the core and its SQLite store (`benchmarks.memory`: with and
without the learner-memory update; `benchmarks.update_log`: with and without the update log).

Builds the quiz core as `bot.app.running_bot` does (`build_services` over the catalog of the
bundled decks' one-answer questions, `benchmarks.harness.decks`, with the memory under test)
on a fresh database, opens one `/quiz` question in each of many supergroups through
`QuizService.quiz`, and lets a pool of concurrent pressers call `QuizService.answer` for
distinct (member, question) pairs, as a busy bot's concurrent update handlers would. No
Telegram, no network: only the core and its SQLite store.
"""

from __future__ import annotations

import asyncio
import sqlite3
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from random import Random
from typing import Any

from benchmarks.harness.decks import one_answer_decks
from bot.app import catalog_of
from bot.core.clock import SystemClock
from bot.core.memory.scheduling import Memory
from bot.core.model import Ask, Card, ChatKind, ChatRef, LearnSource, Player
from bot.core.ports.memory import MemoryWrites
from bot.core.quiz import Queued
from bot.core.services import Services, build_services
from content.loader import load_decks
from storage.sqlite import SqliteStore

DEFAULT_DECK = "nca-multi-gpu"  # Settings.default_deck
RIGHT_SHARE = 0.7  # members press the right option this often
FIRST_CHAT_ID = -1_000_000_000_000
FIRST_USER_ID = 10_000_000


class NoMemory(Memory):
    """The benchmark's baseline: no card review or save, and `run_once` drops the trigger that
    logs each answer. (The card lookup inside the answer's INSERT … RETURNING, a primary-key
    probe, still runs: it cannot be taken out without changing the store.)"""

    def review(self, card: Card | None, **_: Any) -> Card | None:
        return None

    async def learn(
        self,
        tx: MemoryWrites,
        *,
        user_id: int,
        deck_id: str,
        question_id: str,
        correct: bool,
        now: datetime,
        duration: timedelta | None,
        source: LearnSource,
    ) -> None:
        return None


@dataclass(frozen=True)
class Press:
    ask: Ask
    player: Player
    position: int


@dataclass(frozen=True)
class RunResult:
    label: str
    answers: int
    seconds: float
    kinds: Counter[str]

    @property
    def rate(self) -> float:
        return self.answers / self.seconds


def _presses(asks: list[Ask], members: int, rng: Random) -> list[Press]:
    """Each member presses once on each ask, right `RIGHT_SHARE` of the time, in random order."""
    presses = []
    for ask in asks:
        right = ask.option_order.index(0)
        wrong = [p for p in range(len(ask.option_order)) if p != right]
        for member in range(members):
            player = Player(FIRST_USER_ID + member, f"Member{member}")
            position = right if rng.random() < RIGHT_SHARE else rng.choice(wrong)
            presses.append(Press(ask, player, position))
    rng.shuffle(presses)
    return presses


# One press through the core: the plain use case, or wrapped as the update processor wraps it.
PressOnce = Callable[[Services, Press, int], Awaitable[object]]


async def plain_press(services: Services, press: Press, update_id: int) -> object:
    """`QuizService.answer` alone."""
    return await services.quiz.answer(
        chat_id=press.ask.chat_id,
        message_id=None,
        ask_id=press.ask.id,
        position=press.position,
        player=press.player,
    )


async def _press_all(
    services: Services, presses: list[Press], pressers: int, press_once: PressOnce, first_id: int
) -> Counter[str]:
    kinds: Counter[str] = Counter()
    queue = iter(enumerate(presses, start=first_id))

    async def presser() -> None:
        for update_id, press in queue:
            result = await press_once(services, press, update_id)
            kinds[type(result).__name__] += 1

    await asyncio.gather(*(presser() for _ in range(pressers)))
    return kinds


async def run_once(
    label: str,
    memory: Memory,
    *,
    asks: int,
    members: int,
    warmup_asks: int,
    pressers: int,
    seed: int,
    press_once: PressOnce = plain_press,
) -> RunResult:
    """One measurement on a fresh database: `asks` × `members` answers, timed after a warm-up
    of `warmup_asks` × `members` answers on other questions."""
    clock = SystemClock()
    catalog = catalog_of(load_decks(one_answer_decks()), DEFAULT_DECK)
    with tempfile.TemporaryDirectory(prefix="quizbot-bench-memory-") as scratch:
        store = await SqliteStore.open(Path(scratch) / "answers.sqlite3")
        try:
            if isinstance(memory, NoMemory):
                with sqlite3.connect(Path(scratch) / "answers.sqlite3") as raw:
                    raw.execute("DROP TRIGGER answers_learning_log")
            services = build_services(store, catalog, clock, rng=Random(seed), memory=memory)
            quiz = services.quiz
            opened: list[Ask] = []
            for index in range(warmup_asks + asks):
                chat = ChatRef(FIRST_CHAT_ID - index, ChatKind.SUPERGROUP, f"Group {index}")
                queued = await quiz.quiz(chat, None)
                assert isinstance(queued, Queued), queued
                opened.append(queued.ask)
            rng = Random(seed)
            warmup = _presses(opened[:warmup_asks], members, rng)
            timed = _presses(opened[warmup_asks:], members, rng)
            await _press_all(services, warmup, pressers, press_once, 1)
            started = time.perf_counter()
            kinds = await _press_all(services, timed, pressers, press_once, len(warmup) + 1)
            seconds = time.perf_counter() - started
            # The memory did learn: one log row per first press (none with the no-op).
            learned = await store.history(
                FIRST_USER_ID, DEFAULT_DECK, datetime(2000, 1, 1, tzinfo=UTC)
            )
        finally:
            await store.close()
    if kinds["Recorded"] != len(timed):
        raise SystemExit(f"{label}: not every press was recorded: {dict(kinds)}")
    expected = 0 if isinstance(memory, NoMemory) else len(opened)
    if len(learned) != expected:
        raise SystemExit(f"{label}: {len(learned)} presses learned, expected {expected}")
    return RunResult(label, len(timed), seconds, kinds)


async def alternate(
    reps: int, *, asks: int, members: int, warmup_asks: int, pressers: int, seed: int
) -> list[RunResult]:
    """A/B/A/B…: with the real `Memory()`, then with `NoMemory()`, `reps` times each."""
    results = []
    for rep in range(reps):
        for label, memory in (("memory", Memory()), ("no-op", NoMemory())):
            result = await run_once(
                label,
                memory,
                asks=asks,
                members=members,
                warmup_asks=warmup_asks,
                pressers=pressers,
                seed=seed,
            )
            print(
                f"  rep {rep + 1} {label:<7} {result.answers:,} answers in "
                f"{result.seconds:.2f} s = {result.rate:,.0f}/s",
                flush=True,
            )
            results.append(result)
    return results
