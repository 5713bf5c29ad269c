"""What a kind of owed message is: a name, how to prepare what it shows, what its outcome changes.

Each kind is defined by the use case that owes it (a question by asking, a reveal by closing, a
round's summary by rounds, …) and registered with the one outbox when that use case is built.
The edge renders what `prepare` returns with one renderer per type of view; nothing else about
a kind lives anywhere else.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from datetime import datetime
from typing import ClassVar, Generic, Protocol, TypeVar

from bot.core.model import Effect
from bot.core.ports import Writes


class Shown(Protocol):
    """What a prepared owed message shows; it carries the effect it was prepared from."""

    @property
    def effect(self) -> Effect: ...


View = TypeVar("View", bound=Shown)


class OwedKind(ABC, Generic[View]):
    """One kind of owed message. Its hooks run inside the transaction that settles the effect,
    so what an outcome changes commits together with the effect's end."""

    name: ClassVar[str]

    @abstractmethod
    async def prepare(self, effect: Effect) -> View | None:
        """What to show now, read (or made) from the stored state; None when nothing is left
        to show (the effect is then done without a message)."""

    async def delivered(
        self, tx: Writes, shown: View, message_id: int | None, now: datetime
    ) -> None:
        """Telegram took it (`message_id`: the message sent or edited, when there is one)."""

    async def retrying(self, tx: Writes, shown: View, error: str, now: datetime) -> None:
        """A transient failure: it will be tried again."""

    async def failed(self, tx: Writes, shown: View, error: str, now: datetime) -> None:
        """Given up for good: Telegram refused it, or it failed too often."""

    async def abandoned(self, tx: Writes, effect: Effect, error: str, now: datetime) -> None:
        """Dropped before it was prepared: the bot can no longer write to the chat."""
