"""The bot's small HTTP server: /healthz, /readyz and, when given, /metrics (and in webhook
mode the webhook route, see :mod:`bot.runners.webhook`)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager

from aiohttp import web

__all__ = [
    "DatabaseReady",
    "Metrics",
    "Readiness",
    "database_readiness",
    "http_server",
    "probe_routes",
    "probes_only",
]

log = logging.getLogger(__name__)

# `async def database_ready() -> bool`: the database answers (provided by the composition root).
DatabaseReady = Callable[[], Awaitable[bool]]
# `metrics() -> (body, content type)` in Prometheus' text format.
Metrics = Callable[[], tuple[bytes, str]]
# None when ready, else a short reason for the 503.
Readiness = Callable[[], Awaitable[str | None]]

# How long a stopping server lets requests in flight finish (an update is answered only once
# it has been handled, so this bounds how long the last one may take).
SHUTDOWN_SECONDS = 10.0


def database_readiness(database_ready: DatabaseReady) -> Readiness:
    """Ready when the database answers (an error counts as not answering)."""

    async def reason() -> str | None:
        try:
            ready = await database_ready()
        except Exception:
            log.warning("the database readiness check failed", exc_info=True)
            ready = False
        return None if ready else "database unreachable"

    return reason


def probe_routes(*, ready: Readiness, metrics: Metrics | None) -> list[web.RouteDef]:
    """GET /healthz (the process is up), /readyz (``ready``) and /metrics (when given)."""

    async def healthz(request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def readyz(request: web.Request) -> web.Response:
        reason = await ready()
        if reason is None:
            return web.Response(text="ready\n")
        return web.Response(status=503, text=f"not ready: {reason}\n")

    routes = [web.get("/healthz", healthz), web.get("/readyz", readyz)]
    if metrics is not None:
        serve_metrics = metrics

        async def metrics_route(request: web.Request) -> web.Response:
            body, content_type = serve_metrics()
            return web.Response(body=body, headers={"Content-Type": content_type})

        routes.append(web.get("/metrics", metrics_route))
    return routes


@asynccontextmanager
async def http_server(
    routes: Iterable[web.RouteDef], *, listen: str, port: int
) -> AsyncIterator[int]:
    """Serve ``routes`` on ``listen:port`` while the block runs; yields the bound port (``port=0``
    picks a free one). Leaving the block stops accepting and lets requests in flight finish."""
    app = web.Application()
    app.add_routes(list(routes))
    # No access log: load balancers probe every few seconds, and Telegram posts every update.
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=SHUTDOWN_SECONDS)
    await runner.setup()
    try:
        site = web.TCPSite(runner, listen, port)
        await site.start()
        bound = int(runner.addresses[0][1]) if runner.addresses else port
        log.info("serving HTTP on %s:%d", listen, bound)
        yield bound
    finally:
        await runner.cleanup()


@asynccontextmanager
async def probes_only(
    *, listen: str, port: int, database_ready: DatabaseReady, metrics: Metrics | None = None
) -> AsyncIterator[int]:
    """The probes without a webhook (polling mode): /readyz is the database's readiness."""
    routes = probe_routes(ready=database_readiness(database_ready), metrics=metrics)
    async with http_server(routes, listen=listen, port=port) as bound:
        yield bound
