"""Learner reports: a learner flags a question they were shown, picks a reason and may add a
comment; the reports chat's admins mark each report fixed or dismissed.

A report is stored when its reason is picked. Its comment phase then runs for `comment_window`:
the learner's next plain text in private becomes the comment, or they skip it. The report's
message to the reports chat (when one is configured) is owed in the same commit, due when the
phase ends: at once when the learner comments or skips, at the deadline otherwise.

Rules the database enforces: one open report per learner and question (a partial UNIQUE
index), one report per learner waiting for a comment. The daily limit is counted inside the
writing transaction, per UTC day: a learner's time zone is theirs to change, the limit's day
should not be.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from bot.core.catalog import Catalog
from bot.core.clock import Clock
from bot.core.delivery import Outbox
from bot.core.model import (
    Ask,
    ChatKind,
    ChatRef,
    NewReport,
    Report,
    ReportReason,
    ReportStatus,
)
from bot.core.ports import AskStore, ReportStore, Store, Writes
from bot.core.reports.outcomes import (
    AlreadyFiled,
    AlreadyReported,
    AlreadyResolved,
    Commented,
    CommentTooLate,
    Created,
    DailyLimit,
    Filed,
    NoSuchReport,
    NotAwaiting,
    NotReportable,
    QuestionGone,
    Refusal,
    Resolved,
    Subject,
)
from bot.core.reports.owed import ReportKind, forward, view_of

COMMENT_WINDOW = timedelta(minutes=10)
DAILY_LIMIT = 10
LIST_LIMIT = 10_000
_SUPERGROUP_IDS_BELOW = -(10**12)  # Telegram's supergroup and channel ids are -100…


class _RefusedError(Exception):
    """Rolls the report's transaction back with the outcome to return."""

    def __init__(self, outcome: Refusal) -> None:
        super().__init__(type(outcome).__name__)
        self.outcome = outcome


def shown_to(ask: Ask, user_id: int) -> bool:
    """Whether `user_id` may report the question of `ask`: a private question its learner; a
    posted group question anyone with its link (membership is not checked: a report is about
    the shared deck, and says nothing about the group)."""
    if ask.closes_at is None:
        return ask.chat_id == user_id
    return ask.message_id is not None


def day_start(moment: datetime) -> datetime:
    """00:00 UTC of the day `moment` falls in."""
    return moment.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)


def chat_ref_of(chat_id: int) -> ChatRef:
    """The reports chat as far as its id tells (a row is only added when it is unknown)."""
    if chat_id > 0:
        return ChatRef(chat_id, ChatKind.PRIVATE)
    kind = ChatKind.SUPERGROUP if chat_id <= _SUPERGROUP_IDS_BELOW else ChatKind.GROUP
    return ChatRef(chat_id, kind)


class ReportService:
    def __init__(
        self,
        *,
        store: Store,
        reports: ReportStore,
        asks: AskStore,
        catalog: Catalog,
        clock: Clock,
        outbox: Outbox,
        reports_chat: int | None,
        comment_window: timedelta = COMMENT_WINDOW,
        daily_limit: int = DAILY_LIMIT,
    ) -> None:
        self._outbox = outbox
        outbox.register(ReportKind(reports, catalog))
        self._store = store
        self._reports = reports
        self._asks = asks
        self._catalog = catalog
        self._clock = clock
        self.reports_chat = reports_chat
        self.comment_window = comment_window
        self.daily_limit = daily_limit

    async def subject(
        self, user_id: int, ask_id: int, *, from_chat: int | None = None
    ) -> Subject | NotReportable | QuestionGone:
        """The question of `ask_id` as `user_id` saw it; `from_chat`: the chat whose button
        named it (the button must belong there)."""
        ask = await self._asks.get_ask(ask_id)
        if ask is None:
            return NotReportable("no such question")
        if from_chat is not None and ask.chat_id != from_chat:
            return NotReportable("the button belongs to another chat")
        if not shown_to(ask, user_id):
            return NotReportable("the question was not shown to this user")
        question = self._catalog.question_of(ask)
        if question is None:
            return QuestionGone()
        answer = await self._asks.get_answer(ask.id, user_id)
        chosen = None if answer is None else answer.position
        picked = None if answer is None else answer.picked
        return Subject(ask, question, self._catalog.title(ask.deck_id), chosen, picked)

    async def start(
        self, user_id: int, ask_id: int, *, from_chat: int | None = None
    ) -> Subject | Refusal:
        """`⚑ Report` or a report link: the question to pick a reason for, unless the learner
        may not report it (now)."""
        subject = await self.subject(user_id, ask_id, from_chat=from_chat)
        if not isinstance(subject, Subject):
            return subject
        ask = subject.ask
        if await self._reports.open_report(user_id, ask.deck_id, ask.question_id) is not None:
            return AlreadyReported()
        since = day_start(self._clock.now())
        if await self._reports.count_reports_since(user_id, since) >= self.daily_limit:
            return DailyLimit(self.daily_limit)
        return subject

    async def report(
        self, user_id: int, ask_id: int, reason: ReportReason, prompt_message_id: int | None
    ) -> Created | Refusal:
        """Store the report with its reason; its comment phase starts (and any other of the
        learner's ends), and its message to the reports chat is owed."""
        subject = await self.subject(user_id, ask_id)
        if not isinstance(subject, Subject):
            return subject
        now = self._clock.now()
        ask = subject.ask
        draft = NewReport(
            user_id=user_id,
            ask_id=ask.id,
            deck_id=ask.deck_id,
            question_id=ask.question_id,
            question_hash=ask.question_hash or subject.question.content_hash,
            option_order=ask.option_order,
            chosen=subject.chosen,
            picked=subject.picked,
            reason=reason,
            created_at=now,
            comment_until=now + self.comment_window,
            prompt_message_id=prompt_message_id,
        )
        try:
            async with self._store.transaction() as tx:
                if await tx.count_reports_since(user_id, day_start(now)) >= self.daily_limit:
                    raise _RefusedError(DailyLimit(self.daily_limit))
                await tx.end_comment_phases(user_id, now)
                self._wake(tx)
                report = await tx.create_report(draft)
                if report is None:
                    raise _RefusedError(AlreadyReported())
                if self.reports_chat is not None:
                    await tx.ensure_chat(chat_ref_of(self.reports_chat), now)
                    owed = forward(self.reports_chat, report)
                    await self._outbox.owe(tx, owed, not_before=draft.comment_until)
        except _RefusedError as refused:
            return refused.outcome
        return Created(report, subject)

    async def comment(self, user_id: int, text: str) -> Commented | CommentTooLate | NotAwaiting:
        """The learner's plain text in private: their waiting report's comment, if any."""
        awaiting = await self._reports.awaiting_report(user_id)
        if awaiting is None or awaiting.comment_until is None:
            return NotAwaiting()
        now = self._clock.now()
        late = awaiting.comment_until <= now
        async with self._store.transaction() as tx:
            filed = await tx.file_report(awaiting.id, None if late else text, now)
            self._wake(tx)
        if not filed:
            return NotAwaiting()
        if late:
            return CommentTooLate()
        return Commented(replace(awaiting, comment=text, comment_until=None))

    async def skip(self, user_id: int, report_id: int) -> Filed | AlreadyFiled | NotReportable:
        """`Send without comment`: the report goes without one."""
        report = await self._reports.get_report(report_id)
        if report is None or report.user_id != user_id:
            return NotReportable("not this user's report")
        if report.comment_until is None:
            return AlreadyFiled(report)
        async with self._store.transaction() as tx:
            filed = await tx.file_report(report.id, None, self._clock.now())
            self._wake(tx)
        return Filed(report) if filed else AlreadyFiled(report)

    def _wake(self, tx: Writes) -> None:
        if self.reports_chat is not None:
            self._outbox.wake(tx, self.reports_chat)

    async def resolve(
        self, report_id: int, status: ReportStatus, by: int
    ) -> Resolved | AlreadyResolved | NoSuchReport:
        """`Fixed` or `Dismiss` in the reports chat (the edge checked that `by` is its admin)."""
        changed = await self._reports.resolve_report(report_id, status, by, self._clock.now())
        report = await self._reports.get_report(report_id)
        if report is None:
            return NoSuchReport()
        view = view_of(report, self._catalog)
        return Resolved(view) if changed else AlreadyResolved(view)


async def list_reports(
    reports: ReportStore, *, open_only: bool = True, deck_id: str | None = None
) -> list[Report]:
    """`python -m bot reports`: the open reports (or all), newest first."""
    return await reports.reports(open_only=open_only, deck_id=deck_id, limit=LIST_LIMIT)
