"""Delivering owed messages: what each pending effect shows, and what its outcome changes.

The edge's sender asks for a chat's due work, renders and sends each item, and reports back.
Transient failures are retried with back-off; a permanent one ends the effect and, where a
user is waiting for a question that cannot be posted, owes them a short notice instead.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta
from zoneinfo import ZoneInfo

from bot.core.catalog import Catalog
from bot.core.chats import ChatService
from bot.core.clock import Clock
from bot.core.exams.views import ExamResult
from bot.core.model import Ask, Effect, EffectKind, NewEffect, RoundEnd, Tally
from bot.core.ports import AskStore, DailyStore, EffectStore, ReportStore, Store
from bot.core.ports.exams import ExamResults
from bot.core.reports.service import ReportView, view_of
from bot.core.rounds import RoundService, RoundSummary
from content.models import Question

log = logging.getLogger(__name__)

BACKOFF_SECONDS = (1, 2, 4, 8, 16, 30, 60, 120)
CHATS_PER_SCAN = 1000
EFFECTS_PER_BATCH = 50
COULD_NOT_POST = "⚠️ Sorry, Telegram would not take that question ({reason}). Try /quiz again."


@dataclass(frozen=True)
class PostQuestion:
    effect: Effect
    ask: Ask
    question: Question
    deck_title: str
    zone: ZoneInfo
    answered: int


@dataclass(frozen=True)
class ShowReveal:
    effect: Effect
    ask: Ask
    question: Question
    deck_title: str
    tally: Tally


@dataclass(frozen=True)
class MarkAnswered:
    effect: Effect
    ask: Ask
    question: Question
    deck_title: str
    position: int


@dataclass(frozen=True)
class Explain:
    effect: Effect
    ask: Ask
    question: Question
    correct: bool
    summary: RoundSummary | None = None  # the round's, when this was its last question


@dataclass(frozen=True)
class ShowSummary:
    effect: Effect
    summary: RoundSummary
    group: bool


@dataclass(frozen=True)
class Notice:
    effect: Effect
    text: str


@dataclass(frozen=True)
class RemoveButton:
    effect: Effect
    message_id: int


@dataclass(frozen=True)
class ForwardReport:
    """A learner's report, for the reports chat."""

    effect: Effect
    view: ReportView


@dataclass(frozen=True)
class ShowExamResult:
    """A submitted exam's result; `effect.message_id`, the exam's message, is closed first."""

    effect: Effect
    result: ExamResult


@dataclass(frozen=True)
class LiveView:
    """An open group question with its current count of answers."""

    ask: Ask
    question: Question
    deck_title: str
    zone: ZoneInfo
    answered: int


Outgoing = (
    PostQuestion
    | ShowReveal
    | MarkAnswered
    | Explain
    | ShowSummary
    | Notice
    | RemoveButton
    | ForwardReport
    | ShowExamResult
)


class Delivery:
    def __init__(
        self,
        store: Store,
        effects: EffectStore,
        asks: AskStore,
        daily: DailyStore,
        round_service: RoundService,
        chats: ChatService,
        catalog: Catalog,
        clock: Clock,
        reports: ReportStore | None = None,
        exams: ExamResults | None = None,
    ) -> None:
        self._store = store
        self._exams = exams
        self._reports = reports
        self._effects = effects
        self._asks = asks
        self._daily = daily
        self._round_service = round_service
        self._chats = chats
        self._catalog = catalog
        self._clock = clock

    async def due_chats(self) -> list[int]:
        return await self._effects.due_effect_chats(self._clock.now(), CHATS_PER_SCAN)

    async def due(self, chat_id: int) -> list[Outgoing]:
        """The chat's effects that may go now, oldest first. An effect waiting for a retry
        holds back the later ones of the same question (a reveal never overtakes its post)."""
        now = self._clock.now()
        held: set[int] = set()
        ready: list[Outgoing] = []
        for effect in await self._effects.pending_effects(chat_id, EFFECTS_PER_BATCH):
            waiting = effect.not_before is not None and effect.not_before > now
            if waiting or (effect.ask_id is not None and effect.ask_id in held):
                if effect.ask_id is not None:
                    held.add(effect.ask_id)
                continue
            item = await self._view(effect)
            if item is None:
                await self._effects.effect_done(effect, now, None)  # nothing left to show
            else:
                ready.append(item)
        return ready

    async def _view(self, effect: Effect) -> Outgoing | None:
        if effect.kind is EffectKind.NOTICE:
            return Notice(effect, effect.text or "")
        if effect.kind is EffectKind.UNBUTTON:
            return None if effect.message_id is None else RemoveButton(effect, effect.message_id)
        if effect.kind is EffectKind.EXAM_RESULT:
            result = None
            if self._exams is not None and effect.exam_id is not None:
                result = await self._exams.result(effect.exam_id)
            return None if result is None else ShowExamResult(effect, result)
        if effect.kind is EffectKind.REPORT:
            found = None
            if self._reports is not None and effect.report_id is not None:
                found = await self._reports.get_report(effect.report_id)
            return None if found is None else ForwardReport(effect, view_of(found, self._catalog))
        if effect.kind is EffectKind.SUMMARY:
            summary = None
            if effect.round_id is not None:
                summary = await self._round_service.summary(effect.round_id)
            settings = await self._chats.settings(effect.chat_id)
            group = settings is not None and settings.kind.is_group
            return None if summary is None else ShowSummary(effect, summary, group)
        ask = None if effect.ask_id is None else await self._asks.get_ask(effect.ask_id)
        question = None if ask is None else self._catalog.question_of(ask)
        if ask is None or question is None:
            return None
        title = self._catalog.title(ask.deck_id)
        if effect.kind is EffectKind.QUESTION:
            if ask.is_closed:
                return None  # closed before it could be posted (/stop): nothing to show
            answered = await self._asks.answer_count(ask.id) if ask.closes_at else 0
            zone = await self._chats.zone_of(ask.chat_id)
            return PostQuestion(effect, ask, question, title, zone, answered)
        if effect.kind is EffectKind.REVEAL:
            if ask.message_id is None:
                return None  # never posted: nothing to edit
            return ShowReveal(effect, ask, question, title, await self._asks.tally(ask.id))
        answer = None
        if effect.user_id is not None:
            answer = await self._asks.get_answer(ask.id, effect.user_id)
        if answer is None:
            return None
        if effect.kind is EffectKind.ANSWERED:
            if ask.message_id is None:
                return None
            return MarkAnswered(effect, ask, question, title, answer.position)
        summary = None
        if effect.round_id is not None and effect.next_asked is None:
            summary = await self._round_service.summary(effect.round_id)
        return Explain(effect, ask, question, answer.correct, summary)

    async def live_view(self, ask_id: int) -> LiveView | None:
        """The question for a live-count edit; None once it has closed (or never posted)."""
        ask = await self._asks.get_ask(ask_id)
        question = None if ask is None else self._catalog.question_of(ask)
        if ask is None or question is None or ask.message_id is None or ask.is_closed:
            return None
        if ask.closes_at is None or ask.closes_at <= self._clock.now():
            return None
        answered = await self._asks.answer_count(ask.id)
        zone = await self._chats.zone_of(ask.chat_id)
        return LiveView(ask, question, self._catalog.title(ask.deck_id), zone, answered)

    async def delivered(self, item: Outgoing, message_id: int | None = None) -> None:
        now = self._clock.now()
        closes_at = None
        if isinstance(item, PostQuestion) and item.ask.closes_at is not None:
            # Posted late (flood control, retries): the question still gets its full time.
            open_for = item.ask.closes_at - item.ask.asked_at
            closes_at = max(item.ask.closes_at, now + open_for)
        await self._effects.effect_done(item.effect, now, message_id, closes_at)

    async def transient(self, item: Outgoing, error: str, wait: float | None = None) -> None:
        """A failure worth retrying (5xx, timeout, dropped connection, 429 with `wait`)."""
        effect = item.effect
        if wait is None and effect.attempts + 1 >= len(BACKOFF_SECONDS):
            log.warning(
                "chat %s: giving up on %s after %s tries: %s",
                effect.chat_id,
                effect.kind.value,
                effect.attempts + 1,
                error,
            )
            await self.permanent(item, error)
            return
        delay = wait if wait is not None else BACKOFF_SECONDS[effect.attempts]
        await self._effects.effect_retry(
            effect, error, self._clock.now() + timedelta(seconds=delay)
        )

    async def permanent(self, item: Outgoing, error: str) -> None:
        """Telegram refused it for good: end the effect; an unposted question is closed (its
        round ends) and the chat is told why."""
        effect, now = item.effect, self._clock.now()
        log.warning("chat %s: %s failed: %s", effect.chat_id, effect.kind.value, error)
        async with self._store.transaction() as tx:
            await tx.effect_failed(effect, error, now)
            if not isinstance(item, PostQuestion):
                return
            await tx.close_ask(item.ask.id, now)
            if item.ask.round_id is not None:
                await tx.end_round(item.ask.round_id, RoundEnd.STOPPED, now)
            notice = NewEffect(
                effect.chat_id,
                EffectKind.NOTICE,
                thread_id=effect.thread_id,
                text=COULD_NOT_POST.format(reason=error[:100]),
            )
            await tx.enqueue(notice, now)

    async def chat_gone(self, chat_id: int, error: str) -> None:
        """403: the bot was removed or blocked. Stop everything there, keep the history."""
        now = self._clock.now()
        await self._chats.removed(chat_id)
        await self._daily.disable_schedule(chat_id, now)
        dropped = await self._effects.drop_chat_effects(chat_id, error, now)
        log.info("chat %s: %s; %s pending message(s) dropped", chat_id, error, dropped)

    async def chat_moved(self, old_id: int, new_id: int) -> None:
        """The group became a supergroup: its pending work moves with it."""
        log.info("chat %s became supergroup %s; moving its data", old_id, new_id)
        await self._chats.moved(old_id, new_id)
