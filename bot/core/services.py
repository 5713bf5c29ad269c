"""The one place the core's service graph is built: from a store (every port), the decks, a
clock and the settings that concern the core. The app, the tests and the benchmarks all use
`build_services`; each service takes its ports by name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from random import Random
from zoneinfo import ZoneInfo

from bot.core.boards import BoardService
from bot.core.catalog import Catalog
from bot.core.chats import ChatService
from bot.core.clock import Clock
from bot.core.daily import DailyService
from bot.core.delivery import Outbox, Replies
from bot.core.exams.service import ExamService
from bot.core.forget import ForgetService
from bot.core.inbox.allowance import CommandAllowance
from bot.core.inbox.updates import UpdateLog
from bot.core.memory.fit.service import MemoryFitting
from bot.core.memory.fit.train import MIN_REVIEWS
from bot.core.memory.review import ReviewService
from bot.core.memory.scheduling import DEFAULT_RETENTION, Memory
from bot.core.ports import CorePorts
from bot.core.quiz import Asking, QuizConfig, QuizService
from bot.core.quiz.closing import Closer
from bot.core.quiz.live import LiveAnswers, LiveQuestions
from bot.core.reports import ReportService
from bot.core.rounds.service import RoundService
from bot.core.rounds.summary import RoundSummaries
from bot.core.topics import TopicService


@dataclass(frozen=True)
class CoreSettings:
    """What the core is told by the settings (the edge reads them from the environment)."""

    default_zone: ZoneInfo = field(default_factory=lambda: ZoneInfo("UTC"))
    quiz: QuizConfig = field(default_factory=QuizConfig)
    daily_open: timedelta = timedelta(hours=12)
    daily_grace: timedelta = timedelta(hours=6)
    review_retention: float = DEFAULT_RETENTION
    # A learner's presses in a deck before their own FSRS parameters are fitted there.
    personal_memory_min_reviews: int = MIN_REVIEWS
    reports_chat: int | None = None
    # How long a chat's deck and time zone are cached (None: until changed here; replicas:
    # a few seconds, so that another replica's change is seen).
    chat_settings_cached_for: timedelta | None = None


@dataclass(frozen=True)
class Services:
    outbox: Outbox
    replies: Replies
    chats: ChatService
    asking: Asking
    quiz: QuizService
    rounds: RoundService
    closer: Closer
    daily: DailyService
    boards: BoardService
    topics: TopicService
    review: ReviewService
    exams: ExamService
    reports: ReportService
    forget: ForgetService
    memory_fits: MemoryFitting
    live_questions: LiveQuestions
    live_answers: LiveAnswers
    allowance: CommandAllowance
    updates: UpdateLog


def build_services(
    store: CorePorts,
    catalog: Catalog,
    clock: Clock,
    settings: CoreSettings | None = None,
    rng: Random | None = None,
    memory: Memory | None = None,
) -> Services:
    """The quiz core over `store`: every use case, and the outbox with every kind of owed
    message registered (each use case registers the kinds it owes). `memory`: the learner
    memory's scheduler (by default FSRS at the configured retention; a benchmark's baseline
    passes one that learns nothing)."""
    settings = settings or CoreSettings()
    rng = rng or Random()
    chats = ChatService(
        chats=store,
        boards=store,
        catalog=catalog,
        clock=clock,
        default_zone=settings.default_zone,
        cached_for=settings.chat_settings_cached_for,
    )
    outbox = Outbox(store=store, effects=store, daily=store, chats=chats, clock=clock)
    replies = Replies(store=store, outbox=outbox, clock=clock)
    memory = memory or Memory(settings.review_retention, store)
    memory_fits = MemoryFitting(
        store=store,
        memory=memory,
        clock=clock,
        min_reviews=settings.personal_memory_min_reviews,
    )
    asking = Asking(
        asks=store,
        chats=chats,
        catalog=catalog,
        clock=clock,
        config=settings.quiz,
        rng=rng,
        outbox=outbox,
    )
    summaries = RoundSummaries(
        rounds=store, chats=chats, catalog=catalog, clock=clock, memory=store
    )
    rounds = RoundService(
        store=store,
        rounds=store,
        asks=store,
        asking=asking,
        chats=chats,
        catalog=catalog,
        clock=clock,
        outbox=outbox,
        summaries=summaries,
        memory=store,
    )
    quiz = QuizService(
        store=store,
        asks=store,
        rounds=store,
        asking=asking,
        chats=chats,
        catalog=catalog,
        clock=clock,
        outbox=outbox,
        summaries=summaries,
        picks=store,
        memory=memory,
        cards=store,
    )
    return Services(
        outbox=outbox,
        replies=replies,
        chats=chats,
        asking=asking,
        quiz=quiz,
        rounds=rounds,
        closer=Closer(
            store=store, asks=store, rounds=rounds, chats=chats, clock=clock, outbox=outbox
        ),
        daily=DailyService(
            store=store,
            daily=store,
            asks=store,
            chats=chats,
            asking=asking,
            catalog=catalog,
            clock=clock,
            outbox=outbox,
            open_for=settings.daily_open,
            grace=settings.daily_grace,
            memory=store,
        ),
        boards=BoardService(boards=store, asks=store, chats=chats, clock=clock),
        topics=TopicService(memory=store, asks=store, chats=chats, clock=clock, fits=memory_fits),
        review=ReviewService(
            store=store, memory=store, asking=asking, chats=chats, catalog=catalog, clock=clock
        ),
        exams=ExamService(
            store=store,
            exams=store,
            chats=chats,
            catalog=catalog,
            memory=memory,
            clock=clock,
            rng=rng,
            outbox=outbox,
        ),
        reports=ReportService(
            store=store,
            reports=store,
            asks=store,
            catalog=catalog,
            clock=clock,
            outbox=outbox,
            reports_chat=settings.reports_chat,
        ),
        forget=ForgetService(store=store, chats=chats, memory=memory),
        memory_fits=memory_fits,
        live_questions=LiveQuestions(asks=store, chats=chats, catalog=catalog, clock=clock),
        live_answers=LiveAnswers(asks=store, clock=clock),
        allowance=CommandAllowance(store=store, clock=clock),
        updates=UpdateLog(updates=store, clock=clock),
    )
