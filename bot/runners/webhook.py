"""The webhook runner: Telegram posts each update to the bot's HTTP server, which answers only
once the update has been handled. A storage failure while handling it answers 500, so Telegram
delivers the same update again (PTB's own run_webhook answers 200 before handling)."""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from pydantic import SecretStr
from telegram import Bot, Update
from telegram.error import TelegramError
from telegram.ext import Application

from bot.handlers.errors import recording_failures
from bot.runners.http_server import (
    DatabaseReady,
    Metrics,
    Readiness,
    database_readiness,
    http_server,
    probe_routes,
)

__all__ = ["ALLOWED_UPDATES", "SECRET_HEADER", "WebhookReadiness", "webhook", "webhook_route"]

log = logging.getLogger(__name__)

App = Application[Any, Any, Any, Any, Any, Any]
StorageFailure = Callable[[BaseException], bool]

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
# The same update types polling asks for (bot/runners/polling.py).
ALLOWED_UPDATES = Update.ALL_TYPES
# A webhook found set to our URL is trusted this long, so probes do not hammer getWebhookInfo.
READY_CACHE_SECONDS = 5.0
# PTB logs each call's parameters at DEBUG; setWebhook's include the secret.
_BOT_LOGGERS = ("telegram.Bot", "telegram.ext.ExtBot")


class WebhookReadiness:
    """/readyz in webhook mode: the database answers and Telegram's webhook is our URL."""

    def __init__(
        self,
        bot: Bot,
        url: str,
        database: Readiness,
        *,
        cache_seconds: float = READY_CACHE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._bot = bot
        self._url = url
        self._database = database
        self._cache_seconds = cache_seconds
        self._clock = clock
        self._confirmed_at: float | None = None

    async def __call__(self) -> str | None:
        if (reason := await self._database()) is not None:
            return reason
        now = self._clock()
        if self._confirmed_at is not None and now - self._confirmed_at < self._cache_seconds:
            return None
        self._confirmed_at = None
        try:
            info = await self._bot.get_webhook_info()
        except TelegramError as error:
            log.warning("readiness: getWebhookInfo failed: %s", error)
            return "cannot reach the Bot API"
        if info.url != self._url:
            return "webhook not set" if not info.url else "webhook set to another URL"
        self._confirmed_at = now
        return None


def _parse_update(body: bytes, bot: Bot) -> Update | None:
    """The update in a webhook request's body, or None if it is not one."""
    try:
        data = json.loads(body)
    except ValueError:
        return None
    update_id = data.get("update_id") if isinstance(data, dict) else None
    if not isinstance(update_id, int) or isinstance(update_id, bool):
        return None
    try:
        return Update.de_json(data, bot)
    except Exception:
        return None


# Telegram gives up on a webhook request after a while and delivers the update again; an update
# still being handled after this long (its reply queued behind a group's send window) is
# answered 200 and finished in the background.
ANSWER_WITHIN_SECONDS = 20.0


def webhook_route(
    app: App, *, path: str, secret: SecretStr, is_storage_failure: StorageFailure
) -> web.RouteDef:
    """POST ``path``: check the secret header, handle the update, then answer (500 when storage
    failed while handling it, so that Telegram delivers it again)."""
    expected = secret.get_secret_value().encode()
    unfinished: set[asyncio.Task[None]] = set()

    async def receive(request: web.Request) -> web.Response:
        given = request.headers.get(SECRET_HEADER, "").encode(errors="replace")
        if not hmac.compare_digest(given, expected):
            return web.Response(status=401, text="unauthorized\n")
        update = _parse_update(await request.read(), app.bot)
        if update is None:
            return web.Response(status=400, text="not a Telegram update\n")
        # process_update hands handler errors to the error handler instead of raising them;
        # the error handler records them here.
        with recording_failures() as failures:  # the task copies this context
            handling = asyncio.create_task(
                app.update_processor.process_update(update, app.process_update(update))
            )
        done, _ = await asyncio.wait({handling}, timeout=ANSWER_WITHIN_SECONDS)
        if not done:
            # A reply waiting for a busy group's send window must not outlast Telegram's
            # patience, or it would deliver the update again and the command be answered twice.
            # What the update changed is committed by now; the reply goes out when it may.
            unfinished.add(handling)
            handling.add_done_callback(unfinished.discard)
            log.info(
                "update %d still sending after %s s; answered 200",
                update.update_id,
                ANSWER_WITHIN_SECONDS,
            )
            return web.Response()
        if any(is_storage_failure(error) for error in failures):
            log.warning(
                "update %d failed in storage; answering 500 so that Telegram delivers it again",
                update.update_id,
            )
            return web.Response(status=500, text="storage failure; deliver again\n")
        return web.Response()

    return web.post(path, receive)


class _Redact(logging.Filter):
    def __init__(self, secret: str) -> None:
        super().__init__()
        self.secret = secret

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if self.secret in message:
            record.msg, record.args = message.replace(self.secret, "<webhook secret>"), None
        return True


@contextmanager
def _secret_kept_out_of_logs(secret: SecretStr) -> Iterator[None]:
    redact = _Redact(secret.get_secret_value())
    loggers = [logging.getLogger(name) for name in _BOT_LOGGERS]
    for logger in loggers:
        logger.addFilter(redact)
    try:
        yield
    finally:
        for logger in loggers:
            logger.removeFilter(redact)


@asynccontextmanager
async def webhook(
    app: App,
    *,
    url: str,
    secret: SecretStr,
    listen: str,
    port: int,
    max_connections: int,
    database_ready: DatabaseReady,
    is_storage_failure: StorageFailure,
    metrics: Metrics | None = None,
    ready_cache_seconds: float = READY_CACHE_SECONDS,
) -> AsyncIterator[int]:
    """Serve updates posted to ``url``'s path on ``listen:port`` (and the probes) while the
    block runs; yields the bound port. The webhook is set on entry and left set on exit: other
    replicas behind the same URL keep serving it."""
    readiness = WebhookReadiness(
        app.bot, url, database_readiness(database_ready), cache_seconds=ready_cache_seconds
    )
    routes = [
        *probe_routes(ready=readiness, metrics=metrics),
        webhook_route(
            app,
            path=urlsplit(url).path or "/",
            secret=secret,
            is_storage_failure=is_storage_failure,
        ),
    ]
    with _secret_kept_out_of_logs(secret):
        await app.start()
        try:
            async with http_server(routes, listen=listen, port=port) as bound:
                await app.bot.set_webhook(
                    url=url,
                    secret_token=secret.get_secret_value(),
                    allowed_updates=ALLOWED_UPDATES,
                    max_connections=max_connections,
                    drop_pending_updates=False,
                )
                log.info("webhook set to %s; taking updates on %s:%d", url, listen, bound)
                yield bound
        finally:
            await app.stop()
