"""The one global error handler, and what it tells the webhook runner about one update."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from telegram.ext import ContextTypes

log = logging.getLogger("bot.errors")

# The errors seen while one update is handled (set by the webhook runner around
# `process_update`, which hands handler errors to this handler instead of raising them).
_failures: ContextVar[list[BaseException] | None] = ContextVar("update_failures", default=None)


@contextmanager
def recording_failures() -> Iterator[list[BaseException]]:
    """Collect the errors this handler sees while the block handles one update."""
    failures: list[BaseException] = []
    token = _failures.set(failures)
    try:
        yield failures
    finally:
        _failures.reset(token)


async def log_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Log every error that escaped a handler, with its traceback and the update's kind."""
    kind = type(update).__name__ if update is not None else "no update"
    log.error("error while handling %s", kind, exc_info=context.error)
    failures = _failures.get()
    if failures is not None and context.error is not None:
        failures.append(context.error)
