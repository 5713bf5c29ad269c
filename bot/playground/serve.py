"""Serving a playground: the session, and its page on 127.0.0.1, until told to stop."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from aiohttp import web

from bot.config import Settings
from bot.playground.decks import DeckRejected
from bot.playground.session import playground
from bot.playground.web.routes import build_app

log = logging.getLogger(__name__)
LOOPBACK = "127.0.0.1"


class PortInUseError(OSError):
    """The page's port is taken (another playground, or another program)."""


async def serve(
    settings: Settings,
    stop: asyncio.Event,
    *,
    decks: list[Path] | None = None,
    started: asyncio.Event | None = None,
) -> list[str]:
    """Run the playground until `stop` is set. `decks`: files to load first; their problems
    are returned (and nothing is served) when one is not a valid deck."""
    async with playground(settings, settings.playground_folder()) as session:
        for path in decks or []:
            found = await session.load_deck_file(path)
            if isinstance(found, DeckRejected):
                return found.problems
        runner = web.AppRunner(build_app(session), access_log=None)
        await runner.setup()
        try:
            site = web.TCPSite(runner, LOOPBACK, settings.playground_port)
            try:
                await site.start()
            except OSError as error:
                raise PortInUseError(
                    f"port {settings.playground_port} on {LOOPBACK} is in use ({error.strerror});"
                    " set QUIZBOT_PLAYGROUND_PORT to another"
                ) from error
            log.info("playground page: http://%s:%d", LOOPBACK, settings.playground_port)
            if started is not None:
                started.set()
            await stop.wait()
        finally:
            await runner.cleanup()
    return []
