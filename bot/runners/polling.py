"""The long-polling runner: getUpdates in a loop, until the block is left."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from telegram import Update
from telegram.error import TelegramError
from telegram.ext import Application

log = logging.getLogger(__name__)

# A short pause between long polls lets a burst of presses arrive as one batch of updates
# instead of one getUpdates round trip each; it adds at most this much to an answer.
POLL_INTERVAL_SECONDS = 0.05


def _polling_failed(error: TelegramError) -> None:
    """A getUpdates that failed (a 5xx, a time-out, a dropped connection): PTB tries again;
    one line, not the traceback PTB's default callback logs."""
    log.warning("getUpdates failed, trying again: %s: %s", type(error).__name__, error)


@asynccontextmanager
async def polling(
    app: Application[Any, Any, Any, Any, Any, Any], *, poll_timeout: int = 30
) -> AsyncIterator[None]:
    """Fetch updates and hand them to the application's handlers while the block runs."""
    assert app.updater is not None
    await app.updater.start_polling(
        timeout=poll_timeout,
        poll_interval=POLL_INTERVAL_SECONDS,
        allowed_updates=Update.ALL_TYPES,
        error_callback=_polling_failed,
    )
    try:
        await app.start()
    except BaseException:
        await app.updater.stop()
        raise
    try:
        yield
    finally:
        await app.updater.stop()
        await app.stop()
