"""The python-telegram-bot Application as quizbot builds it: its HTTP clients, defaults,
concurrency and rate limiter, and a start-up that closes everything when it fails."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from telegram import LinkPreviewOptions
from telegram.constants import ParseMode
from telegram.ext import Application, BaseUpdateProcessor, Defaults

from bot.config import Settings
from bot.transport.ratelimit import SlidingWindowRateLimiter
from bot.transport.request import AiohttpRequest

# Updates are handled concurrently (many members press at once in a group); the HTTP pool is
# sized to match so that answers do not queue for a connection.
CONCURRENT_UPDATES = 128
HTTP_POOL_SIZE = 64

App = Application[Any, Any, Any, Any, Any, Any]


def build_application(
    settings: Settings, processor: BaseUpdateProcessor
) -> tuple[App, list[AiohttpRequest]]:
    """The Application; `processor` processes each update (at most CONCURRENT_UPDATES at once)."""
    if settings.telegram_bot_token is None:
        raise ValueError("TELEGRAM_BOT_TOKEN is not set")
    # PTB 22 warns on every RetryAfter unless durations are timedeltas; it reads this per call.
    os.environ.setdefault("PTB_TIMEDELTA", "1")
    requests = [
        AiohttpRequest(connection_pool_size=HTTP_POOL_SIZE),
        AiohttpRequest(connection_pool_size=1),
    ]
    app = (
        Application.builder()
        .token(settings.telegram_bot_token.get_secret_value())
        .base_url(settings.bot_api_base_url())
        .base_file_url(settings.bot_api_file_url())
        .defaults(
            Defaults(
                parse_mode=ParseMode.HTML,
                link_preview_options=LinkPreviewOptions(is_disabled=True),
            )
        )
        .request(requests[0])
        .get_updates_request(requests[1])
        .concurrent_updates(processor)
        .rate_limiter(SlidingWindowRateLimiter(scale=settings.rate_limit_scale))
        .build()
    )
    return app, requests


@asynccontextmanager
async def initialized(app: App, requests: list[AiohttpRequest]) -> AsyncIterator[None]:
    """`async with app`, but the HTTP sessions are closed even when start-up fails (PTB skips
    its shutdown when initialize() raised, e.g. with no network)."""
    try:
        await app.initialize()
    except BaseException:
        for request in requests:
            await request.shutdown()
        raise
    try:
        yield
    finally:
        await app.shutdown()
