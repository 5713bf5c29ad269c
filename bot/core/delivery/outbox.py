"""The one outbox: every message the bot owes, of every kind, from the commit that owes it to its
end (sent, settled, or given up).

A use case owes a message with `owe(tx, effect)` inside its own transaction; after the commit
the edge's sender is told which chat has work (`listen`). The sender asks for a chat's due
messages (`due`), renders and sends each, and reports back (`delivered`, `transient`,
`permanent`, `chat_gone`, `chat_moved`); the kind's hooks run in the transaction that settles
the effect. Retries, 403s and group → supergroup moves are handled here once for all kinds.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from bot.core.chats import ChatService
from bot.core.clock import Clock
from bot.core.delivery.kinds import OwedKind, Shown
from bot.core.model import Effect, NewEffect
from bot.core.ports import DailyStore, EffectStore, Store, Writes

log = logging.getLogger(__name__)

BACKOFF_SECONDS = (1, 2, 4, 8, 16, 30, 60, 120)
CHATS_PER_SCAN = 1000
EFFECTS_PER_BATCH = 50
SETTLED_KEPT_FOR = timedelta(days=7)


async def _done(tx: Writes, *, effect: Effect, now: datetime) -> None:
    await tx.effect_done(effect, now)


def _may_go(pending: Sequence[Effect], now: datetime) -> list[Effect]:
    """Of a chat's pending effects (oldest first), those not waiting for a retry nor held back
    by an earlier one about the same question that is."""
    held: set[int | None] = set()
    going: list[Effect] = []
    for effect in pending:
        if (effect.not_before is not None and effect.not_before > now) or effect.ask_id in held:
            held.add(effect.ask_id)
        else:
            going.append(effect)
    return going


class UnknownKindError(ValueError):
    """An effect of a kind no use case registered (a bug: the kind's module was not wired)."""


class Outbox:
    def __init__(
        self,
        *,
        store: Store,
        effects: EffectStore,
        daily: DailyStore,
        chats: ChatService,
        clock: Clock,
    ) -> None:
        self._store = store
        self._effects = effects
        self._daily = daily
        self._chats = chats
        self._clock = clock
        self._kinds: dict[str, OwedKind[Any]] = {}
        self._listeners: list[Callable[[int], None]] = []

    def register(self, kind: OwedKind[Any]) -> None:
        """Take effects of `kind` (each use case registers the kinds it owes)."""
        if kind.name in self._kinds:
            raise ValueError(f"two kinds of owed message are named {kind.name!r}")
        self._kinds[kind.name] = kind

    def kinds(self) -> Sequence[OwedKind[Any]]:
        return tuple(self._kinds.values())

    def listen(self, listener: Callable[[int], None]) -> None:
        """Call `listener(chat_id)` after each commit that owes that chat an interactive
        message (the sender starts the chat's queue)."""
        self._listeners.append(listener)

    def _kind(self, name: str) -> OwedKind[Any]:
        kind = self._kinds.get(name)
        if kind is None:
            raise UnknownKindError(f"no kind of owed message is named {name!r}")
        return kind

    def _notify(self, chat_id: int) -> None:
        for listener in self._listeners:
            listener(chat_id)

    async def owe(
        self, tx: Writes, effect: NewEffect, *, not_before: datetime | None = None
    ) -> bool:
        """Record `effect` in the caller's transaction; False when its `dedupe_key` was owed
        before (nothing is recorded then)."""
        self._kind(effect.kind)
        added = await tx.enqueue(effect, self._clock.now(), not_before)
        if added and not effect.bulk:
            tx.after_commit(partial(self._notify, effect.chat_id))
        return added

    def wake(self, tx: Writes, chat_id: int) -> None:
        """A message the chat was owed became due in this transaction (e.g. a report whose
        comment phase ended): its sender looks after the commit."""
        tx.after_commit(partial(self._notify, chat_id))

    async def owe_many(self, tx: Writes, effects: Sequence[NewEffect]) -> None:
        """Record many effects at once (a fan-out's); those whose key was owed are skipped."""
        for effect in effects:
            self._kind(effect.kind)
        await tx.enqueue_many(effects, self._clock.now())
        for chat_id in {e.chat_id for e in effects if not e.bulk}:
            tx.after_commit(partial(self._notify, chat_id))

    async def due_chats(self, *, bulk: bool = False) -> list[int]:
        """Chats with messages that may be tried now: interactive ones, or (`bulk`) chats
        owed only fan-out messages, for the bulk feeder."""
        return await self._effects.due_effect_chats(self._clock.now(), CHATS_PER_SCAN, bulk=bulk)

    async def due(self, chat_id: int) -> list[Shown]:
        """The chat's owed messages that may go now, oldest first, each prepared for showing.
        One waiting for a retry holds back the later ones about the same question (a reveal
        never overtakes its post), and those about no question hold back each other."""
        now = self._clock.now()
        ready: list[Shown] = []
        pending = await self._effects.pending_effects(chat_id, EFFECTS_PER_BATCH)
        for effect in _may_go(pending, now):
            shown = await self._kind(effect.kind).prepare(effect)
            if shown is None:
                await self._store.grouped(partial(_done, effect=effect, now=now))
            else:
                ready.append(shown)
        return ready

    async def any_due(self, chat_id: int) -> bool:
        """Whether `due` would find something for the chat now (without preparing it)."""
        pending = await self._effects.pending_effects(chat_id, EFFECTS_PER_BATCH)
        return bool(_may_go(pending, self._clock.now()))

    async def delivered(self, shown: Shown, message_id: int | None = None) -> None:
        """Telegram took it: the effect ends, with what its kind says that changes."""
        kind, now = self._kind(shown.effect.kind), self._clock.now()

        async def settle(tx: Writes) -> None:
            await tx.effect_done(shown.effect, now)
            await kind.delivered(tx, shown, message_id, now)

        await self._store.grouped(settle)

    async def transient(self, shown: Shown, error: str, wait: float | None = None) -> None:
        """A failure worth retrying (5xx, time-out, dropped connection; a 429 with `wait`),
        after a back-off; given up after too many tries."""
        effect = shown.effect
        if wait is None and effect.attempts + 1 >= len(BACKOFF_SECONDS):
            log.warning(
                "chat %s: giving up on %s after %s tries: %s",
                effect.chat_id,
                effect.kind,
                effect.attempts + 1,
                error,
            )
            await self.permanent(shown, error)
            return
        delay = wait if wait is not None else BACKOFF_SECONDS[effect.attempts]
        now = self._clock.now()
        kind = self._kind(effect.kind)
        async with self._store.transaction() as tx:
            await tx.effect_retry(effect, error, now + timedelta(seconds=delay))
            await kind.retrying(tx, shown, error, now)

    async def permanent(self, shown: Shown, error: str) -> None:
        """Telegram refused it for good: the effect ends, with what its kind says giving up
        changes (an unposted question closes and the chat is told why)."""
        effect, now = shown.effect, self._clock.now()
        log.warning("chat %s: %s failed: %s", effect.chat_id, effect.kind, error)
        kind = self._kind(effect.kind)
        async with self._store.transaction() as tx:
            await tx.effect_failed(effect, error, now)
            await kind.failed(tx, shown, error, now)

    async def chat_gone(self, chat_id: int, error: str) -> None:
        """403: the bot was removed or blocked. Nothing more is sent or scheduled there; the
        history is kept."""
        now = self._clock.now()
        await self._chats.removed(chat_id)
        await self._daily.disable_schedule(chat_id, now)
        async with self._store.transaction() as tx:
            dropped = await tx.drop_chat_effects(chat_id, error, now)
            for effect in dropped:
                await self._abandon(tx, effect, error, now)
        log.info("chat %s: %s; %s pending message(s) dropped", chat_id, error, len(dropped))

    async def _abandon(self, tx: Writes, effect: Effect, error: str, now: datetime) -> None:
        kind = self._kinds.get(effect.kind)
        if kind is not None:
            await kind.abandoned(tx, effect, error, now)

    async def forget_settled(self) -> int:
        """Forget the messages that ended more than a week ago (what they said is history,
        and replies may hold what a user wrote); how many."""
        before = self._clock.now() - SETTLED_KEPT_FOR
        return await self._effects.forget_settled_effects_before(before)

    async def chat_moved(self, old_id: int, new_id: int) -> None:
        """The group became a supergroup: its owed messages move with it."""
        log.info("chat %s became supergroup %s; moving its data", old_id, new_id)
        await self._chats.moved(old_id, new_id)
