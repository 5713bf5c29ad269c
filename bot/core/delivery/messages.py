"""Owed messages whose text is known when they are owed: a short notice, and the replies to
commands and presses (rendered by the edge, kept here until Telegram takes them).

A reply goes through the outbox like every owed message: it survives a failed call and a
restart, and a chat's replies keep their order. `Replies` is the use case the edge calls.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.core.clock import Clock
from bot.core.delivery.kinds import OwedKind
from bot.core.delivery.outbox import Outbox
from bot.core.model import ChatRef, Effect, NewEffect
from bot.core.ports import Store

NOTICE = "notice"
REPLY = "reply"


@dataclass(frozen=True)
class Notice:
    """A short text for the chat, e.g. why a question could not be posted."""

    effect: Effect
    text: str


class NoticeKind(OwedKind[Notice]):
    name = NOTICE

    async def prepare(self, effect: Effect) -> Notice | None:
        return Notice(effect, effect.text or "")


def notice(chat_id: int, text: str, thread_id: int | None = None) -> NewEffect:
    return NewEffect(chat_id, NOTICE, thread_id=thread_id, text=text)


@dataclass(frozen=True)
class Reply:
    """A message the edge rendered: sent (as a reply to `reply_to`, if given) or, with
    `edit`, put in place of that message. `keyboard` is the edge's own JSON of its buttons."""

    effect: Effect
    text: str
    reply_to: int | None
    edit: int | None
    keyboard: Mapping[str, Any] | None
    keyboard_only: bool = False


class ReplyKind(OwedKind[Reply]):
    name = REPLY

    async def prepare(self, effect: Effect) -> Reply | None:
        payload = effect.payload
        keyboard = payload.get("keyboard")
        return Reply(
            effect,
            effect.text or "",
            reply_to=payload.get("reply_to"),
            edit=payload.get("edit"),
            keyboard=keyboard if isinstance(keyboard, Mapping) else None,
            keyboard_only=payload.get("keyboard_only") is True,
        )


class Replies:
    """Replies to what a user did, owed through the outbox (in order within the chat)."""

    def __init__(self, *, store: Store, outbox: Outbox, clock: Clock) -> None:
        self._store = store
        self._outbox = outbox
        self._clock = clock
        outbox.register(NoticeKind())
        outbox.register(ReplyKind())

    async def send(
        self,
        chat: ChatRef,
        text: str,
        *,
        thread_id: int | None = None,
        reply_to: int | None = None,
        keyboard: Mapping[str, Any] | None = None,
        user_id: int | None = None,
    ) -> None:
        """Owe `text` to the chat (in the forum topic `thread_id`, quoting `reply_to`), in
        answer to `user_id` (whose `/forgetme` deletes it with the rest of their data)."""
        payload = {"reply_to": reply_to, "keyboard": keyboard}
        await self._owe(chat, text, thread_id, payload, user_id)

    async def edit(
        self,
        chat: ChatRef,
        message_id: int,
        text: str,
        keyboard: Mapping[str, Any] | None = None,
        *,
        user_id: int | None = None,
        keyboard_only: bool = False,
    ) -> None:
        """Owe an edit of the bot's message `message_id` to `text` and `keyboard` (only its
        keyboard, with `keyboard_only`)."""
        payload = {"edit": message_id, "keyboard": keyboard, "keyboard_only": keyboard_only}
        await self._owe(chat, text, None, payload, user_id)

    async def _owe(
        self,
        chat: ChatRef,
        text: str,
        thread_id: int | None,
        payload: dict[str, Any],
        user_id: int | None,
    ) -> None:
        effect = NewEffect(
            chat.id,
            REPLY,
            thread_id=thread_id,
            user_id=user_id,
            text=text,
            payload={key: value for key, value in payload.items() if value not in (None, False)},
        )
        async with self._store.transaction() as tx:
            await tx.ensure_chat(chat, self._clock.now())
            await self._outbox.owe(tx, effect)
