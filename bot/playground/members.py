"""Simulated members of the playground's group: each answers every open group question on
their own, after a while, right about as often as they are told to be."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.callback_data import parse_answer_button
from bot.playground.botapi import BotApiServer, FakeChat, FakeUser, StoredMessage

log = logging.getLogger(__name__)

# (ask id) -> the position of its right option, or None when the question is unknown.
RightPosition = Callable[[int], Awaitable[int | None]]


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
        right_position: RightPosition,
        *,
        pace: Pace | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self._server = server
        self._group = group
        self.people = people
        self._right_position = right_position
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
        first = parse_answer_button(datas[0])
        if first is None:
            return
        try:
            position = await self._right_position(first.ask_id)
        except Exception:  # the bot is restarting: this member lets this one go
            log.info("member %s skips a question: its answer could not be read", person.first_name)
            return
        if position is None:
            return
        choices = [d for d in datas if (b := parse_answer_button(d)) and b.position == position]
        if not right:
            choices = [d for d in datas if (b := parse_answer_button(d)) and b.position != position]
        if choices:
            self._server.press_button(self._group, person, message_id, self._rng.choice(choices))


def _answer_data(message: StoredMessage) -> list[str]:
    """The answer buttons' data of a bot message (none once the question is closed)."""
    if not message.from_bot:
        return []
    return [d for d in message.callback_data if parse_answer_button(d) is not None]
