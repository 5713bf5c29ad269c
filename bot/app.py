"""The composition root: the one module that builds storage, the quiz core and the Telegram
edge together, and runs them until stopped."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from random import Random
from zoneinfo import ZoneInfo

from bot import metrics
from bot.application import App, build_application, initialized
from bot.config import Settings
from bot.core.boards import BoardService
from bot.core.catalog import Catalog
from bot.core.chats import ChatService
from bot.core.clock import Clock, SystemClock
from bot.core.closing import Closer
from bot.core.daily import DailyService
from bot.core.delivery import Delivery
from bot.core.exams.service import ExamService
from bot.core.forget import ForgetService
from bot.core.items.analysis import DeckFigures
from bot.core.items.review import ItemReview
from bot.core.live import LiveAnswers
from bot.core.memory.review import ReviewService
from bot.core.memory.scheduling import Memory
from bot.core.model import Report
from bot.core.quiz import Asking, QuizConfig, QuizService
from bot.core.reports.service import ReportService, list_reports
from bot.core.rounds import RoundService
from bot.core.topics import TopicService
from bot.handlers import Handlers, register_handlers
from bot.handlers.answers import AnswerHandlers
from bot.handlers.chat_events import ChatEventHandlers
from bot.handlers.commands import CommandHandlers
from bot.handlers.exams import ExamHandlers
from bot.handlers.forget import ForgetHandlers
from bot.handlers.reports import ReportHandlers
from bot.handlers.review import ReviewHandlers
from bot.handlers.settings import SettingsHandlers
from bot.handlers.throttle import CommandThrottle, OncePer
from bot.handlers.topics import TopicHandlers
from bot.render import questions as render
from bot.runners import runner_for
from bot.transport.ratelimit import SlidingWindowRateLimiter
from bot.workers.daily_sender import DailySender
from bot.workers.leader import LeaderLoop, StoreChatClaims, replica_name
from bot.workers.live_count import LiveCounts
from bot.workers.sender import Sender
from bot.workers.ticker import DueWork, Ticker
from content.loader import NONE, DeckError, DeckProblem, load_decks
from content.models import Deck
from storage.copy import CopyFailedError, CopyRefusedError, CopyReport, copy_sqlite_to_postgres
from storage.failures import STORAGE_ERRORS
from storage.postgres.leader import PostgresLeadership
from storage.postgres.store import PostgresStore
from storage.sql.store import SqlStore
from storage.sqlite import SchemaTooNewError, SqliteStore
from storage.sqlite.lock import DatabaseInUseError, ProcessLock

__all__ = [
    "CopyFailedError",
    "CopyRefusedError",
    "CopyReport",
    "DatabaseInUseError",
    "RunningBot",
    "SchemaTooNewError",
    "copy_to_postgres",
    "run_until",
    "running_bot",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RunningBot:
    """A started bot, for `python -m bot`, the tests and the benchmarks."""

    app: App
    store: SqlStore
    sender: Sender
    ticker: Ticker
    daily_sender: DailySender
    daily: DailyService
    leader: LeaderLoop | None = None  # with PostgreSQL: who runs the background work


async def open_store(settings: Settings, *, pool_size: int | None = None) -> SqlStore:
    """The database QUIZBOT_DATABASE names: a PostgreSQL URL, or else a SQLite file."""
    if settings.database_is_postgres():
        return await PostgresStore.open(
            settings.database, pool_size=pool_size or settings.database_pool_size
        )
    return await SqliteStore.open(settings.sqlite_path())


@asynccontextmanager
async def running_bot(
    settings: Settings,
    *,
    clock: Clock | None = None,
    poll_timeout: int = 30,
    rng: Random | None = None,
) -> AsyncIterator[RunningBot]:
    """The bot started and polling; leaving the block stops it cleanly, in reverse order."""
    clock = clock or SystemClock()
    catalog = catalog_of(load_decks(settings.content_dir), settings.default_deck)
    async with AsyncExitStack() as stack:
        if not settings.database_is_postgres():
            lock = ProcessLock(settings.sqlite_path())
            lock.acquire()  # DatabaseInUseError while another process serves the file
            stack.callback(lock.release)
        store = await open_store(settings)
        stack.push_async_callback(store.close)
        replica = replica_name()
        chats = ChatService(store, store, catalog, clock, ZoneInfo(settings.timezone))
        config = QuizConfig(
            group_open=timedelta(seconds=settings.quiz_open_seconds),
            round_open=timedelta(seconds=settings.round_open_seconds),
        )
        asking = Asking(store, chats, catalog, clock, config, rng or Random())
        memory = Memory(settings.review_retention)
        exams = ExamService(store, store, chats, catalog, memory, clock, rng or Random())
        quiz = QuizService(store, store, store, asking, chats, catalog, clock, memory, store)
        rounds = RoundService(store, store, store, asking, chats, catalog, clock, store)
        daily = DailyService(
            store,
            chats,
            asking,
            catalog,
            clock,
            open_for=timedelta(hours=settings.daily_open_hours),
            grace=timedelta(hours=settings.daily_grace_hours),
            memory=store,
            replica=replica,
        )
        delivery = Delivery(
            store, store, store, store, rounds, chats, catalog, clock, store, exams=exams
        )
        reports = ReportService(store, store, store, catalog, clock, settings.reports_chat)
        app, requests = build_application(settings)

        def seconds() -> float:
            return clock.now().timestamp()

        live = LiveCounts(delivery.live_view, app.bot, seconds)
        replicated = settings.database_is_postgres()
        claims = StoreChatClaims(store, replica, clock) if replicated else None
        sender = Sender(delivery, app.bot, live, claims)
        live_answers = LiveAnswers(store, clock)
        leaders: list[LeaderLoop] = []  # the leader loop, once started (replicas only)

        def counts_here() -> bool:
            return not replicated or any(loop.leading for loop in leaders)

        async def live_from_database() -> set[int]:
            # Replicas: the leader marks the questions any replica recorded answers to.
            return {a.chat_id for a in await live_answers.newly_answered() if live.answered(a)}

        due_work: tuple[DueWork, ...] = (exams.close_due,)
        ticker = Ticker(
            Closer(store, store, rounds, chats, clock),
            sender,
            (*due_work, live_from_database) if replicated else due_work,
        )
        daily_sender = DailySender(daily, app.bot)
        throttle = CommandThrottle(clock=seconds)
        topics = TopicService(store, store, chats, clock)
        commands = CommandHandlers(
            quiz,
            rounds,
            BoardService(store, store, chats, clock),
            chats,
            daily,
            sender,
            throttle,
            OncePer(clock=seconds),
            topics,
        )
        handlers = Handlers(
            commands=commands,
            settings=SettingsHandlers(daily, chats, catalog, throttle),
            answers=AnswerHandlers(quiz, rounds, sender, live, counts_here),
            events=ChatEventHandlers(chats, sender),
            reports=ReportHandlers(reports, sender, greet=commands.help, other=commands.other),
            forget=ForgetHandlers(ForgetService(store, chats)),
            review=ReviewHandlers(
                ReviewService(store, store, asking, chats, catalog, clock), quiz, sender
            ),
            topics=TopicHandlers(topics, throttle),
            exams=ExamHandlers(exams, sender, throttle),
        )
        register_handlers(app, handlers)
        limiter = app.bot.rate_limiter
        assert isinstance(limiter, SlidingWindowRateLimiter)
        await stack.enter_async_context(initialized(app, requests))
        # Questions that fell due while the bot was down close before anything else.
        await ticker.tick()
        await app.bot.set_my_commands(render.bot_commands())
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

        async def lead() -> None:
            # A new leader takes over its predecessor's claimed pushes at once.
            await store.release_push_claims(keep=replica)
            live_answers.restart()
            ticker.start(job_queue)
            daily_sender.start()

        async def follow() -> None:
            await ticker.stop()
            await daily_sender.stop()

        leader: LeaderLoop | None = None
        if replicated:
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
        yield RunningBot(app, store, sender, ticker, daily_sender, daily, leader)
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
        return await ItemReview(store, decks).decks(deck_id)
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
    PostgreSQL database `url`, and checked (storage/copy.py)."""
    return await copy_sqlite_to_postgres(file, url)
