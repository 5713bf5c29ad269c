"""The composition root: the one module that builds storage, the quiz core and the Telegram
edge together, and runs them until stopped."""

from __future__ import annotations

import asyncio
import gc
import importlib.util
import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from random import Random
from zoneinfo import ZoneInfo

from bot import metrics
from bot.application import CONCURRENT_UPDATES, App, build_application, initialized
from bot.config import Settings
from bot.core.calibration import Calibration, DeckCalibration
from bot.core.catalog import Catalog
from bot.core.clock import Clock, SystemClock
from bot.core.items.analysis import DeckFigures
from bot.core.items.review import ItemReview
from bot.core.model import Report
from bot.core.quiz import QuizConfig
from bot.core.reports import list_reports
from bot.core.services import CoreSettings, Services, build_services
from bot.handlers import build_handlers, register_handlers
from bot.render.commands import bot_commands
from bot.runners import runner_for
from bot.runners.processor import OnceUpdateProcessor
from bot.transport.ratelimit import SlidingWindowRateLimiter
from bot.workers.calibration import CalibrationWorker, calibration_worker
from bot.workers.leader import LeaderLoop, StoreChatClaims, replica_name
from bot.workers.live_count import LiveCounts
from bot.workers.memory_fit import memory_fit_worker
from bot.workers.sender import Sender
from bot.workers.ticker import DueWork, Ticker
from content.loader import NONE, DeckError, DeckProblem, load_decks
from content.models import Deck
from storage.copy.model import CopyFailedError, CopyRefusedError, CopyReport
from storage.failures import STORAGE_ERRORS
from storage.sql.store import SqlStore
from storage.sqlite import SchemaTooNewError, SqliteStore
from storage.sqlite.lock import DatabaseInUseError, ProcessLock

__all__ = [
    "CopyFailedError",
    "CopyRefusedError",
    "CopyReport",
    "DatabaseInUseError",
    "PostgresDriverMissingError",
    "RunningBot",
    "SchemaTooNewError",
    "copy_to_postgres",
    "run_until",
    "running_bot",
]

log = logging.getLogger(__name__)

# With replicas, a chat's deck and time zone set on one replica reach the others this soon.
REPLICA_CACHE = timedelta(seconds=5)


@dataclass(frozen=True)
class RunningBot:
    """A started bot, for `python -m bot`, the tests and the benchmarks."""

    app: App
    store: SqlStore
    services: Services
    sender: Sender
    ticker: Ticker
    leader: LeaderLoop | None = None  # with PostgreSQL: who runs the background work
    calibrator: CalibrationWorker | None = None  # None: QUIZBOT_CALIBRATE_EVERY_HOURS=0


class PostgresDriverMissingError(RuntimeError):
    """QUIZBOT_DATABASE is a PostgreSQL URL, but the `postgres` extra (asyncpg) is not
    installed."""

    def __init__(self) -> None:
        super().__init__(
            "QUIZBOT_DATABASE is a PostgreSQL URL, but its driver is not installed: "
            "pip install 'quizbot[postgres]' (the Docker image has it)"
        )


def _needs_asyncpg() -> None:
    # PostgreSQL is an extra: a SQLite bot (`make run`) has no asyncpg and never imports it.
    if importlib.util.find_spec("asyncpg") is None:
        raise PostgresDriverMissingError


async def open_store(settings: Settings, *, pool_size: int | None = None) -> SqlStore:
    """The database QUIZBOT_DATABASE names: a PostgreSQL URL, or else a SQLite file."""
    if settings.database_is_postgres():
        _needs_asyncpg()
        from storage.postgres.store import PostgresStore

        return await PostgresStore.open(
            settings.database, pool_size=pool_size or settings.database_pool_size
        )
    return await SqliteStore.open(settings.sqlite_path())


def core_settings(settings: Settings) -> CoreSettings:
    """What the core is told of the settings."""
    return CoreSettings(
        default_zone=ZoneInfo(settings.timezone),
        quiz=QuizConfig(
            group_open=timedelta(seconds=settings.quiz_open_seconds),
            round_open=timedelta(seconds=settings.round_open_seconds),
        ),
        daily_open=timedelta(hours=settings.daily_open_hours),
        daily_grace=timedelta(hours=settings.daily_grace_hours),
        review_retention=settings.review_retention,
        personal_memory_min_reviews=settings.personal_memory_min_reviews,
        reports_chat=settings.reports_chat,
        chat_settings_cached_for=REPLICA_CACHE if settings.database_is_postgres() else None,
    )


@asynccontextmanager
async def running_bot(
    settings: Settings,
    *,
    clock: Clock | None = None,
    poll_timeout: int = 30,
    rng: Random | None = None,
) -> AsyncIterator[RunningBot]:
    """The bot started and taking updates; leaving the block stops it cleanly, in reverse
    order."""
    clock = clock or SystemClock()
    catalog = catalog_of(load_decks(settings.content_dir), settings.default_deck)
    async with AsyncExitStack() as stack:
        replicated = settings.database_is_postgres()
        if not replicated:
            lock = ProcessLock(settings.sqlite_path())
            lock.acquire()  # DatabaseInUseError while another process serves the file
            stack.callback(lock.release)
        store = await open_store(settings)
        stack.push_async_callback(store.close)
        replica = replica_name()
        services = build_services(store, catalog, clock, core_settings(settings), rng)
        processor = OnceUpdateProcessor(CONCURRENT_UPDATES, services.updates, _is_storage_failure)
        app, requests = build_application(settings, processor)

        def seconds() -> float:
            return clock.now().timestamp()

        live = LiveCounts(services.live_questions.view, app.bot, seconds)
        claims = StoreChatClaims(store, replica, clock) if replicated else None
        limiter = app.bot.rate_limiter
        assert isinstance(limiter, SlidingWindowRateLimiter)
        sender = Sender(
            services.outbox,
            app.bot,
            live,
            claims,
            expected=_is_storage_failure,
            close_gate=limiter.close,
            images=settings.content_dir,
        )
        leaders: list[LeaderLoop] = []  # the leader loop, once started (replicas only)

        def counts_here() -> bool:
            return not replicated or any(loop.leading for loop in leaders)

        async def live_from_database() -> set[int]:
            # Replicas: the leader marks the questions any replica recorded answers to.
            answered = await services.live_answers.newly_answered()
            return {a.chat_id for a in answered if live.answered(a)}

        async def forget_old_windows() -> int:
            return await store.forget_allowances_before(clock.now() - timedelta(minutes=1))

        due_work: tuple[DueWork, ...] = (services.exams.close_due,)
        ticker = Ticker(
            closer=services.closer,
            daily=services.daily,
            sender=sender,
            also=(*due_work, live_from_database) if replicated else due_work,
            tidy=(services.updates.prune, services.outbox.forget_settled, forget_old_windows),
            expected=_is_storage_failure,
        )
        register_handlers(
            app, build_handlers(services, catalog, sender, live, counts_here, _is_storage_failure)
        )
        limiter = app.bot.rate_limiter
        assert isinstance(limiter, SlidingWindowRateLimiter)
        await stack.enter_async_context(initialized(app, requests))
        # Questions that fell due while the bot was down close before anything else.
        await ticker.tick()
        await app.bot.set_my_commands(bot_commands())
        await stack.enter_async_context(
            runner_for(
                app,
                settings,
                poll_timeout=poll_timeout,
                database_ready=store.ping,
                is_storage_failure=_is_storage_failure,
                metrics=metrics.render_latest,
            )
        )
        stack.push_async_callback(sender.stop)
        job_queue = app.job_queue
        assert job_queue is not None

        calibrator = calibration_worker(
            settings.calibrate_every_hours, store, catalog, clock, expected=_is_storage_failure
        )
        memory_fits = memory_fit_worker(services.memory_fits, expected=_is_storage_failure)

        async def lead() -> None:
            services.live_answers.restart()
            ticker.start(job_queue)
            sender.start_bulk()
            if calibrator is not None:
                calibrator.start()
            memory_fits.start()

        async def follow() -> None:
            await memory_fits.stop()
            if calibrator is not None:
                await calibrator.stop()
            await ticker.stop()
            await sender.stop_bulk()

        leader: LeaderLoop | None = None
        if replicated:
            from storage.postgres.leader import PostgresLeadership

            leader = LeaderLoop(
                replica=replica,
                leadership=PostgresLeadership(settings.database),
                replicas=store,
                limiter=limiter,
                clock=clock,
                lead=lead,
                follow=follow,
            )
            leaders.append(leader)
            await leader.check()
            leader.start()
            stack.push_async_callback(leader.stop)
        else:  # the only process on its SQLite file: always the leader
            metrics.set_leader(True)
            await lead()
            stack.push_async_callback(follow)
        log.info("quizbot is running as @%s", app.bot.username)
        yield RunningBot(app, store, services, sender, ticker, leader, calibrator)
        log.info("stopping")


def _is_storage_failure(error: BaseException) -> bool:
    """Errors after which a webhook update is answered 500, for Telegram to deliver it again."""
    return isinstance(error, STORAGE_ERRORS)


def catalog_of(decks: dict[str, Deck], default_deck: str) -> Catalog:
    """The decks, with `default_deck` for chats that chose none; a missing one stops start-up."""
    if default_deck not in decks:
        known = ", ".join(sorted(decks))
        problem = DeckProblem(
            NONE, NONE, "QUIZBOT_DEFAULT_DECK", f"no deck {default_deck!r} ({known})"
        )
        raise DeckError([problem])
    return Catalog(decks, default_deck)


async def analyse_database(
    settings: Settings, decks: Mapping[str, Deck], deck_id: str | None
) -> list[DeckFigures]:
    """`python -m bot item-report`: the figures of one deck (none if unknown) or of every
    deck, read from the database."""
    store = await open_store(settings, pool_size=2)
    try:
        return await ItemReview(store=store, calibrations=store, decks=decks).decks(deck_id)
    finally:
        await store.close()


async def calibrate_database(
    settings: Settings, decks: Mapping[str, Deck], deck_id: str | None
) -> list[DeckCalibration]:
    """`python -m bot calibrate`: fit and store the item parameters of one deck (none if
    unknown) or of every deck."""
    store = await open_store(settings, pool_size=2)
    try:
        return await Calibration(store=store, decks=decks, clock=SystemClock()).calibrate(deck_id)
    finally:
        await store.close()


async def stored_reports(
    settings: Settings, *, open_only: bool = True, deck_id: str | None = None
) -> list[Report]:
    """The learners' reports in the database, newest first (`python -m bot reports`)."""
    store = await open_store(settings, pool_size=2)
    try:
        return await list_reports(store, open_only=open_only, deck_id=deck_id)
    finally:
        await store.close()


async def run_until(settings: Settings, stop: asyncio.Event) -> None:
    """Serve updates until `stop` is set (by SIGINT/SIGTERM in `python -m bot`)."""
    async with running_bot(settings):
        # Everything loaded so far (decks, PTB, pydantic models) lives as long as the process:
        # keeping it out of the collector's full passes keeps their pauses short under load.
        gc.freeze()
        await stop.wait()


async def copy_to_postgres(file: Path, url: str) -> CopyReport:
    """`python -m bot copy-to-postgres`: the SQLite database `file` copied into the empty
    PostgreSQL database `url`, and checked (storage/copy/)."""
    _needs_asyncpg()
    from storage.copy.run import copy_sqlite_to_postgres

    return await copy_sqlite_to_postgres(file, url)
