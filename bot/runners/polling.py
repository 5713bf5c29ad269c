"""The long-polling runner: getUpdates in a loop, until the block is left."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from telegram import Update
from telegram.ext import Application

# A short pause between long polls lets a burst of presses arrive as one batch of updates
# instead of one getUpdates round trip each; it adds at most this much to an answer.
POLL_INTERVAL_SECONDS = 0.05


@asynccontextmanager
async def polling(
    app: Application[Any, Any, Any, Any, Any, Any], *, poll_timeout: int = 30
) -> AsyncIterator[None]:
    """Fetch updates and hand them to the application's handlers while the block runs."""
    assert app.updater is not None
    await app.updater.start_polling(
        timeout=poll_timeout, poll_interval=POLL_INTERVAL_SECONDS, allowed_updates=Update.ALL_TYPES
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
