"""The one global error handler."""

from __future__ import annotations

import logging

from telegram.ext import ContextTypes

log = logging.getLogger("bot.errors")


async def log_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Log every error that escaped a handler, with its traceback and the update's kind."""
    kind = type(update).__name__ if update is not None else "no update"
    log.error("error while handling %s", kind, exc_info=context.error)
