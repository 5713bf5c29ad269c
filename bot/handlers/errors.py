"""The one global error handler, and what it tells the runners about one update.

Expected faults are one line each, never a traceback: Telegram's (5xx with any body, time-outs,
dropped connections, flood control, a press too old to answer), a database that failed while
handling the update (the webhook answers 500 and Telegram delivers it again), and an update
another handling acted on first. A traceback means a bug.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from telegram import Update
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter
from telegram.ext import ContextTypes

from bot.core.model import UpdateAlreadyHandledError

log = logging.getLogger("bot.errors")

# A press Telegram no longer lets the bot answer (it waited too long): handled all the same.
_STALE_PRESS = ("query is too old", "query id is invalid")
StorageFailure = Callable[[BaseException], bool]

# The errors seen while one update is handled (set around `process_update`, which hands
# handler errors to this handler instead of raising them).
_failures: ContextVar[list[BaseException] | None] = ContextVar("update_failures", default=None)


@contextmanager
def recording_failures() -> Iterator[list[BaseException]]:
    """Collect the errors this handler sees while the block handles one update (the list of
    an enclosing block, when there is one)."""
    current = _failures.get()
    if current is not None:
        yield current
        return
    failures: list[BaseException] = []
    token = _failures.set(failures)
    try:
        yield failures
    finally:
        _failures.reset(token)


def is_telegram_fault(error: BaseException) -> bool:
    """A fault of Telegram's side or of the network, not of ours."""
    if isinstance(error, NetworkError | RetryAfter | Forbidden) and not isinstance(
        error, BadRequest
    ):
        return True
    return isinstance(error, BadRequest) and any(
        text in error.message.lower() for text in _STALE_PRESS
    )


class ErrorLog:
    def __init__(self, is_storage_failure: StorageFailure = lambda _: False) -> None:
        self._is_storage_failure = is_storage_failure

    async def __call__(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        error = context.error
        if error is None:
            return
        failures = _failures.get()
        if failures is not None:
            failures.append(error)
        what = _describe(update)
        if isinstance(error, UpdateAlreadyHandledError):
            log.info("%s was acted on by another handling already; nothing changed", what)
        elif is_telegram_fault(error):
            log.warning("%s: Telegram: %s: %s", what, type(error).__name__, error)
        elif self._is_storage_failure(error):
            log.warning("%s: the database failed: %s: %s", what, type(error).__name__, error)
        else:
            log.error("error while handling %s", what, exc_info=error)


def _describe(update: object) -> str:
    if isinstance(update, Update):
        return f"update {update.update_id}"
    return type(update).__name__ if update is not None else "no update"
