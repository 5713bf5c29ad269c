"""App wiring: load decks, open the database, build the PTB Application, run until stopped."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from zoneinfo import ZoneInfo

from telegram import LinkPreviewOptions, Update
from telegram.constants import ParseMode
from telegram.ext import Application, CallbackContext, Defaults

from bot import render
from bot.config import Settings
from bot.core.clock import Clock, SystemClock
from bot.core.daily import DailyService
from bot.core.rounds import RoundService
from bot.core.service import QuizConfig, QuizService
from bot.daily_sender import DailySender
from bot.handlers import register_handlers
from bot.http import AiohttpRequest
from bot.jobs import TICK_SECONDS, Ticker
from bot.live_count import LiveCounts
from bot.posting import Poster
from bot.ratelimit import SlidingWindowRateLimiter
from content.loader import load_decks
from storage.db import Database

log = logging.getLogger(__name__)

# Updates are handled concurrently (many members press at once in a group); the HTTP pool is
# sized to match so that answers do not queue for a connection.
CONCURRENT_UPDATES = 128
HTTP_POOL_SIZE = 64
# A short pause between long polls lets a burst of presses arrive as one batch of updates
# instead of one getUpdates round trip each; it adds at most this much to an answer.
POLL_INTERVAL_SECONDS = 0.05


@dataclass(frozen=True)
class Services:
    """What the handlers need, built once at start."""

    db: Database
    quiz: QuizService


@asynccontextmanager
async def open_services(settings: Settings, clock: Clock) -> AsyncIterator[Services]:
    decks = load_decks(settings.content_dir)
    db = await Database.open(settings.database)
    try:
        config = QuizConfig(
            default_zone=ZoneInfo(settings.timezone),
            group_open=timedelta(seconds=settings.quiz_open_seconds),
            round_open=timedelta(seconds=settings.round_open_seconds),
        )
        yield Services(db=db, quiz=QuizService(db, decks, clock, config=config))
    finally:
        await db.close()


def build_application(settings: Settings, services: Services) -> Application:  # type: ignore[type-arg]
    if settings.telegram_bot_token is None:
        raise ValueError("TELEGRAM_BOT_TOKEN is not set")
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
        .request(AiohttpRequest(connection_pool_size=HTTP_POOL_SIZE))
        .get_updates_request(AiohttpRequest(connection_pool_size=1))
        .concurrent_updates(CONCURRENT_UPDATES)
        .rate_limiter(SlidingWindowRateLimiter(scale=settings.rate_limit_scale))
        .build()
    )
    return app


@dataclass(frozen=True)
class RunningBot:
    app: Application  # type: ignore[type-arg]
    services: Services
    ticker: Ticker
    sender: DailySender


@asynccontextmanager
async def running_bot(
    settings: Settings, *, clock: Clock | None = None, poll_timeout: int = 30
) -> AsyncIterator[RunningBot]:
    """The bot started and polling; leaving the block stops it cleanly, in reverse order."""
    async with open_services(settings, clock or SystemClock()) as services:
        app = build_application(settings, services)
        rounds = RoundService(services.quiz)
        live = LiveCounts(services.quiz, app.bot)
        poster = Poster(services.quiz, rounds, app.bot)
        ticker = Ticker(services.quiz, app.bot, live)
        ticker.on_closed = poster.after_close
        daily = DailyService(
            services.quiz,
            open_for=timedelta(hours=settings.daily_open_hours),
            grace=timedelta(hours=settings.daily_grace_hours),
        )
        sender = DailySender(daily, poster, app.bot)
        register_handlers(app, services.quiz, rounds, live, poster, ticker, daily)
        async with app:
            # Questions that fell due while the bot was down close before anything else.
            await ticker.tick()
            await app.bot.set_my_commands(render.bot_commands())
            assert app.updater is not None
            await app.updater.start_polling(
                timeout=poll_timeout,
                poll_interval=POLL_INTERVAL_SECONDS,
                allowed_updates=Update.ALL_TYPES,
            )
            await app.start()
            assert app.job_queue is not None
            app.job_queue.run_repeating(_tick, TICK_SECONDS, data=ticker, name="ticker")
            sender.start()
            log.info("quizbot is running as @%s", app.bot.username)
            try:
                yield RunningBot(app, services, ticker, sender)
            finally:
                log.info("stopping")
                await sender.stop()
                await app.updater.stop()
                await app.stop()


async def _tick(context: CallbackContext) -> None:  # type: ignore[type-arg]
    ticker = context.job.data if context.job else None
    assert isinstance(ticker, Ticker)
    await ticker.tick()


async def run_until(settings: Settings, stop: asyncio.Event) -> None:
    """Serve updates until `stop` is set (by SIGINT/SIGTERM in `python -m bot`)."""
    async with running_bot(settings):
        await stop.wait()
