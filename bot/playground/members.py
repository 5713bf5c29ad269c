"""Simulated members of the playground's group: each answers every open group question on
their own, after a while, right about as often as they are told to be. A "choose N" question
is answered as a person answers it: N letters picked, then Submit."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.callback_data import (
    parse_answer_button,
    parse_pick_button,
    parse_submit_button,
)
from bot.playground.botapi import BotApiServer, FakeChat, FakeUser, StoredMessage

log = logging.getLogger(__name__)

# (ask id) -> the positions of its right options, or None when the question is unknown.
RightPositions = Callable[[int], Awaitable[frozenset[int] | None]]
PICKED_SECONDS = 10.0  # how long a member waits for the bot to take a pick before Submit


@dataclass
class Pace:
    """How well and how fast the members answer: `accuracy` in [0, 1], a press `fastest` to
    `slowest` seconds after the question appears."""

    accuracy: float = 0.7
    fastest: float = 3.0
    slowest: float = 20.0

    def __post_init__(self) -> None:
        if not 0.0 <= self.accuracy <= 1.0:
            raise ValueError("accuracy is a share between 0 and 1")
        if not 0.0 <= self.fastest <= self.slowest <= 600.0:
            raise ValueError("need 0 ≤ fastest ≤ slowest ≤ 600 seconds")


class Members:
    """Watches the group for questions with answer buttons; each member presses one of them
    once, at a random moment within the pace, choosing the right letter with the pace's
    accuracy."""

    def __init__(
        self,
        server: BotApiServer,
        group: FakeChat,
        people: list[FakeUser],
        right_positions: RightPositions,
        *,
        pace: Pace | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self._server = server
        self._group = group
        self.people = people
        self._right_positions = right_positions
        self.pace = pace or Pace()
        self._rng = rng or random.Random()
        self._seen: set[int] = set()  # question messages already being answered
        self._tasks: set[asyncio.Task[None]] = set()
        self._watcher: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._watcher = asyncio.create_task(self._watch(), name="playground-members")

    async def stop(self) -> None:
        tasks = [t for t in (self._watcher, *self._tasks) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _watch(self) -> None:
        while True:
            for message in self._server.chat_messages(self._group.id):
                if message.message_id not in self._seen and _answer_data(message):
                    self._seen.add(message.message_id)
                    self._answer_later(message)
            await self._server.changed()

    def _answer_later(self, question: StoredMessage) -> None:
        for person in self.people:
            delay = self._rng.uniform(self.pace.fastest, self.pace.slowest)
            right = self._rng.random() < self.pace.accuracy
            task = asyncio.create_task(self._press(person, question.message_id, delay, right))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _press(self, person: FakeUser, message_id: int, delay: float, right: bool) -> None:
        await asyncio.sleep(delay)
        message = self._server.find_message(self._group.id, message_id)
        datas = _answer_data(message) if message is not None else []
        if not datas:
            return  # closed meanwhile
        ask_id = _ask_id(datas[0])
        try:
            rights = await self._right_positions(ask_id)
        except Exception:  # the bot is restarting: this member lets this one go
            log.info("member %s skips a question: its answer could not be read", person.first_name)
            return
        if not rights:
            return
        letters = {p: d for d in datas if (p := _position(d)) is not None}
        chosen = self._choose(sorted(letters), rights, right)
        submit = [d for d in message.callback_data if parse_submit_button(d)] if message else []
        if not submit:
            self._server.press_button(self._group, person, message_id, letters[min(chosen)])
            return
        for position in sorted(chosen):  # each pick taken before the next press and Submit
            query = self._server.press_button(self._group, person, message_id, letters[position])
            try:
                await self._server.callback_answer(query, PICKED_SECONDS)
            except TimeoutError:
                return  # the bot did not take the pick: no Submit that would be refused
        self._server.press_button(self._group, person, message_id, submit[0])

    def _choose(self, positions: list[int], rights: frozenset[int], right: bool) -> set[int]:
        """The letters a member picks: the right ones, or as many with at least one wrong."""
        if right:
            return set(rights)
        wrongs = [p for p in positions if p not in rights]
        if not wrongs:
            return set(rights)
        miss = self._rng.choice(wrongs)
        others = [p for p in positions if p != miss]
        return {miss, *self._rng.sample(others, len(rights) - 1)}


def _position(data: str) -> int | None:
    button = parse_answer_button(data) or parse_pick_button(data)
    return None if button is None else button.position


def _ask_id(data: str) -> int:
    button = parse_answer_button(data) or parse_pick_button(data)
    assert button is not None  # only letters' data reach here
    return button.ask_id


def _answer_data(message: StoredMessage) -> list[str]:
    """The letters' data of a bot message's question (none once the question is closed)."""
    if not message.from_bot:
        return []
    return [d for d in message.callback_data if _position(d) is not None]


def asks_of(datas: list[str]) -> set[int]:
    """The asks a message's buttons answer (letters, picks or Submit)."""
    found: set[int] = set()
    for data in datas:
        button = parse_answer_button(data) or parse_pick_button(data) or parse_submit_button(data)
        if button is not None:
            found.add(button.ask_id)
    return found
