"""Prometheus metrics of the Telegram edge, served at GET /metrics via `render_latest()`.

Everything is in this module's own `REGISTRY`, not prometheus_client's global one: /metrics
shows exactly quizbot's metrics plus the process/platform/GC collectors added below, and no
library can slip metrics (or a name clash at import) into it. The counters are process-wide,
so tests compare values before and after what they do.

What an operator graphs:

- `rate(quizbot_updates_handled_total[5m])` by `kind`: traffic;
- `rate(quizbot_answers_recorded_total[5m])` by `chat_type`: answers per second;
- `rate(quizbot_messages_sent_total[5m])` by `method`: successful Bot API calls (every method,
  including the long polls of getUpdates);
- `increase(quizbot_telegram_429_total[1h])` by `method`: flood control hits, which should
  stay near zero;
- `quizbot_pending_sends`: chats whose owed messages are due but not sent, at the sender's last
  scan (a growing value means sending does not keep up);
- `rate(quizbot_owed_messages_sent_total[5m])` by `kind`: owed messages Telegram took (a
  question, a reveal, a reply, a daily push…); `kind="daily"` is the daily fan-out's speed;
- `quizbot_pending_bulk_chats` draining to 0: the progress of a daily fan-out under way (chats
  still owed their push, at most 1000 counted);
- `quizbot_leader`: 1 on the replica doing the background work (`sum` should be 1).
"""

from __future__ import annotations

import functools

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    GC_COLLECTOR,
    PLATFORM_COLLECTOR,
    PROCESS_COLLECTOR,
    CollectorRegistry,
    Counter,
    Gauge,
    generate_latest,
)
from telegram import Update

__all__ = [
    "REGISTRY",
    "answer_recorded",
    "owed_sent",
    "render_latest",
    "request_done",
    "set_leader",
    "set_pending_bulk",
    "set_pending_sends",
    "update_handled",
]

REGISTRY = CollectorRegistry(auto_describe=True)
# The process's memory, CPU and open files, as the default registry would show them.
for _collector in (PROCESS_COLLECTOR, PLATFORM_COLLECTOR, GC_COLLECTOR):
    REGISTRY.register(_collector)

UPDATE_KINDS = ("message", "callback_query", "my_chat_member", "other")
CHAT_TYPES = ("private", "group")

UPDATES = Counter(
    "quizbot_updates_handled",
    "Updates from Telegram handed to the handlers, by kind.",
    ["kind"],
    registry=REGISTRY,
)
ANSWERS = Counter(
    "quizbot_answers_recorded",
    "Answer presses recorded (first press of a player on an open question), by chat type.",
    ["chat_type"],
    registry=REGISTRY,
)
SENT = Counter(
    "quizbot_messages_sent",
    "Bot API calls that succeeded (HTTP 2xx), by method; includes getUpdates.",
    ["method"],
    registry=REGISTRY,
)
TOO_MANY = Counter(
    "quizbot_telegram_429",
    "Bot API calls refused with 429 Too Many Requests (flood control), by method.",
    ["method"],
    registry=REGISTRY,
)
PENDING_SENDS = Gauge(
    "quizbot_pending_sends",
    "Chats with owed messages due now (each may owe several; at most 1000 are counted), "
    "at the sender's last scan.",
    registry=REGISTRY,
)
OWED_SENT = Counter(
    "quizbot_owed_messages_sent",
    "Owed messages Telegram took, by kind (question, reveal, explanation, reply, daily, …).",
    ["kind"],
    registry=REGISTRY,
)
PENDING_BULK = Gauge(
    "quizbot_pending_bulk_chats",
    "Chats owed bulk messages (daily pushes) due now, at most 1000 counted, at the bulk "
    "feeder's last look: a fan-out under way drains it to 0.",
    registry=REGISTRY,
)
LEADER = Gauge(
    "quizbot_leader",
    "1 while this replica is the leader that does the background work, else 0.",
    registry=REGISTRY,
)

# Every series exists from the start (at 0), so rate() and absent() see it before first use;
# the children are kept, as labels() costs more than the increment.
_UPDATES = {kind: UPDATES.labels(kind) for kind in UPDATE_KINDS}
_ANSWERS = {chat_type: ANSWERS.labels(chat_type) for chat_type in CHAT_TYPES}


def render_latest() -> tuple[bytes, str]:
    """The body and Content-Type of a GET /metrics answer."""
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST


async def update_handled(update: object, _context: object) -> None:
    """A PTB handler callback: counts every update by kind (see `register_handlers`)."""
    kind = "other"
    if isinstance(update, Update):
        if update.message is not None:
            kind = "message"
        elif update.callback_query is not None:
            kind = "callback_query"
        elif update.my_chat_member is not None:
            kind = "my_chat_member"
    _UPDATES[kind].inc()


def answer_recorded(chat_type: str) -> None:
    """An answer was recorded in a chat of this Telegram type (every non-private one is a group)."""
    _ANSWERS["private" if chat_type == "private" else "group"].inc()


def _api_method(url: str) -> str:
    """The Bot API method at the end of `url`; file downloads all count as "file"."""
    name = url.rsplit("/", 1)[-1]
    return name if name.isalnum() else "file"


# Every Bot API call passes here: the counter of a URL is looked up once (a few dozen URLs, as
# the token is the same in all), which makes counting a call less than half as costly.
@functools.lru_cache(maxsize=256)
def _sent(url: str) -> Counter:
    return SENT.labels(_api_method(url))


def request_done(url: str, status: int) -> None:
    """A Bot API call got an HTTP answer: a 2xx counts as sent, a 429 as flood control."""
    if 200 <= status <= 299:
        _sent(url).inc()
    elif status == 429:
        TOO_MANY.labels(_api_method(url)).inc()


def set_pending_sends(chats: int) -> None:
    PENDING_SENDS.set(chats)


def set_pending_bulk(chats: int) -> None:
    PENDING_BULK.set(chats)


def owed_sent(kind: str) -> None:
    OWED_SENT.labels(kind).inc()


def set_leader(is_leader: bool) -> None:
    LEADER.set(1 if is_leader else 0)
