"""The database of `benchmarks.fanout`, through the storage ports only (no SQL here).

Seeding: `SqliteStore.open` creates the file with every migration, then `upsert_chat` and
`set_schedule` write N supergroups with an enabled schedule each (their time zone is the bot's
default, UTC). One statement per call: about 0.3 ms each, ~6 s for 10,000 chats, which is why
the slot is chosen after the chats are in (`seed`).

Reading the ledger: `push_for` per chat and `get_ask` per ledger row with an ask (~1 ms per chat
together, after the fan-out); while the bot runs, `pending_pushes(1)` says whether any row is
still pending. No port reads a row's ``last_error``, so the rows that were not sent are grouped
by status, ask and attempts only (the bot's log has the errors).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

from bot.core.model import ChatKind, ChatRef, PushStatus
from storage.sqlite import SqliteStore

FIRST_CHAT_ID = -1_001_000_000_000  # supergroup ids count down from here


def chat_ids(count: int) -> list[int]:
    return [FIRST_CHAT_ID - i for i in range(count)]


async def seed(store: SqliteStore, count: int, lead: float) -> tuple[datetime, float]:
    """``count`` supergroups whose daily question is due at one slot, about ``lead`` seconds after
    this returns; the slot (whole seconds, UTC) and the same moment on the monotonic clock."""
    now = datetime.now(UTC)
    started = time.monotonic()
    for i, chat_id in enumerate(chat_ids(count)):
        await store.upsert_chat(ChatRef(chat_id, ChatKind.SUPERGROUP, f"Study group {i}"), now)
    # The schedules take about as long as the chats did: the slot is after both, plus the lead.
    ahead = lead + (time.monotonic() - started) * 1.2
    slot = (datetime.now(UTC) + timedelta(seconds=ahead)).replace(microsecond=0)
    for chat_id in chat_ids(count):
        await store.set_schedule(chat_id, f"{slot:%H:%M}", slot, slot.date(), now)
    return slot, time.monotonic() + (slot.timestamp() - time.time())


@dataclass
class Ledger:
    statuses: Counter[str]
    sent: dict[int, int | None]  # chat id -> message id of its 'sent' row
    asks: int  # asks noted on ledger rows
    asks_without_message: int
    # Rows not 'sent': (status, has an ask, attempts) -> how many.
    unsent: Counter[tuple[str, bool, int]] = field(default_factory=Counter)

    @property
    def pending(self) -> int:
        return self.statuses.get(PushStatus.PENDING.value, 0)

    @property
    def rows(self) -> int:
        return sum(self.statuses.values())


async def read_ledger(store: SqliteStore, chats: Sequence[int], day: date) -> Ledger:
    ledger = Ledger(Counter(), {}, 0, 0)
    for chat_id in chats:
        push = await store.push_for(chat_id, day)
        if push is None:
            continue
        ledger.statuses[push.status.value] += 1
        if push.status is PushStatus.SENT:
            ledger.sent[chat_id] = push.message_id
        else:
            ledger.unsent[(push.status.value, push.ask_id is not None, push.attempts)] += 1
        if push.ask_id is not None:
            ledger.asks += 1
            ask = await store.get_ask(push.ask_id)
            ledger.asks_without_message += ask is None or ask.message_id is None
    return ledger


async def any_pending(store: SqliteStore) -> bool:
    return bool(await store.pending_pushes(1))
