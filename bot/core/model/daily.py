"""Daily questions: a chat's schedule and the delivery ledger of its pushes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum


class PushStatus(StrEnum):
    PENDING = "pending"
    SENT = "sent"
    FAILED = "failed"
    SKIPPED = "skipped"


@dataclass(frozen=True)
class Schedule:
    chat_id: int
    local_time: str
    enabled: bool
    next_slot_at: datetime
    next_day: date
    thread_id: int | None = None  # the forum topic /daily was sent in (None: none)


@dataclass(frozen=True)
class Push:
    """A ledger row: the daily question owed to (or delivered to) a chat for a local day."""

    chat_id: int
    local_day: date
    slot_at: datetime
    status: PushStatus
    ask_id: int | None
    message_id: int | None
    attempts: int


@dataclass(frozen=True)
class SlotDecision:
    """What to do about one due schedule: the ledger row to write and the next slot."""

    chat_id: int
    local_day: date
    slot_at: datetime
    status: PushStatus  # PENDING (send it) or SKIPPED (too late)
    next_slot_at: datetime
    next_day: date
    thread_id: int | None = None
