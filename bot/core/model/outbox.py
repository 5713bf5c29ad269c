"""Owed messages (effects): recorded with the state change that owes them, sent after it.

An effect names its kind (a string: each kind is defined, with how it is prepared and what its
outcome changes, by the use case that owes it; see `bot.core.delivery`), the chat, and what it
is about: the row references below (kept as columns so that deleting or moving those rows
finds their effects) and, for anything else the kind needs, `payload` (JSON values only).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

# JSON-serialisable values: str, int, float, bool, None, lists and mappings of them.
Payload = Mapping[str, Any]


@dataclass(frozen=True)
class NewEffect:
    chat_id: int
    kind: str
    thread_id: int | None = None
    # The question it is about. Later effects of the same question wait while an earlier one
    # waits for a retry (a reveal never overtakes its post); effects about no question keep
    # their order among themselves in the same way.
    ask_id: int | None = None
    round_id: int | None = None
    user_id: int | None = None
    # For an explanation in a round: the `Next ▶` button's count of questions asked so far.
    next_asked: int | None = None
    # The message an edit targets or a reply answers.
    message_id: int | None = None
    text: str | None = None
    report_id: int | None = None
    exam_id: int | None = None
    payload: Payload = field(default_factory=dict)
    # Fan-out traffic (daily pushes): interactive messages overtake it, at most a few of its
    # sends are in flight at once, and a chat's scan does not start it (the bulk feeder does).
    bulk: bool = False
    # At most one effect ever has a given key (e.g. one "still open" pointer per question):
    # owing a second one is a no-op, whichever replica tries.
    dedupe_key: str | None = None


@dataclass(frozen=True)
class Effect(NewEffect):
    id: int = 0
    attempts: int = 0
    not_before: datetime | None = None  # when a retry may be made; None: at once
