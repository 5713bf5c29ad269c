"""Runners: how updates reach the bot (long polling, or a webhook), chosen by the settings."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

from telegram.ext import Application

from bot.config import Settings
from bot.runners.http_server import DatabaseReady, Metrics, probes_only
from bot.runners.polling import polling
from bot.runners.webhook import StorageFailure, webhook

__all__ = ["runner_for"]

App = Application[Any, Any, Any, Any, Any, Any]


def runner_for(
    app: App,
    settings: Settings,
    *,
    poll_timeout: int,
    database_ready: DatabaseReady,
    is_storage_failure: StorageFailure,
    metrics: Metrics | None = None,
) -> AbstractAsyncContextManager[object]:
    """A webhook when QUIZBOT_WEBHOOK_URL is set, else long polling (with /healthz, /readyz and
    /metrics when QUIZBOT_HTTP_PORT is set)."""
    if settings.webhook_url is not None:
        if settings.webhook_secret is None:  # the settings' validation refuses this already
            raise ValueError("QUIZBOT_WEBHOOK_URL is set without QUIZBOT_WEBHOOK_SECRET")
        return webhook(
            app,
            url=str(settings.webhook_url),
            secret=settings.webhook_secret,
            listen=settings.webhook_listen,
            port=settings.webhook_port,
            max_connections=settings.webhook_max_connections,
            database_ready=database_ready,
            is_storage_failure=is_storage_failure,
            metrics=metrics,
        )
    if settings.http_port is None:
        return polling(app, poll_timeout=poll_timeout)
    return _polling_with_probes(
        app,
        settings.http_listen,
        settings.http_port,
        poll_timeout=poll_timeout,
        database_ready=database_ready,
        metrics=metrics,
    )


@asynccontextmanager
async def _polling_with_probes(
    app: App,
    listen: str,
    port: int,
    *,
    poll_timeout: int,
    database_ready: DatabaseReady,
    metrics: Metrics | None,
) -> AsyncIterator[int]:
    probes = probes_only(listen=listen, port=port, database_ready=database_ready, metrics=metrics)
    async with probes as bound, polling(app, poll_timeout=poll_timeout):
        yield bound
