"""The quiz core's model: the types the use cases, the ports and the storage adapters share."""

from __future__ import annotations

import string
from dataclasses import dataclass
from datetime import UTC, date, datetime
from enum import StrEnum

from bot.core.exam_model import Exam as Exam
from bot.core.exam_model import ExamDraft as ExamDraft
from bot.core.exam_model import ExamEnd as ExamEnd
from bot.core.exam_model import ExamItem as ExamItem
from bot.core.exam_model import ExamItemDraft as ExamItemDraft
from bot.core.memory_model import LEECH_LAPSES as LEECH_LAPSES
from bot.core.memory_model import Card as Card
from bot.core.memory_model import Learned as Learned
from bot.core.memory_model import LearnSource as LearnSource
from bot.core.report_model import NewReport as NewReport
from bot.core.report_model import Report as Report
from bot.core.report_model import ReportReason as ReportReason
from bot.core.report_model import ReportStatus as ReportStatus

LETTERS = string.ascii_uppercase


def letter(position: int) -> str:
    """The letter shown for a display position: 0 → A, 1 → B, …"""
    return LETTERS[position]


def full_name(first_name: str, last_name: str | None) -> str:
    """How a user is named in texts: first and last name, as Telegram shows them."""
    return f"{first_name} {last_name}" if last_name else first_name


class ChatKind(StrEnum):
    PRIVATE = "private"
    GROUP = "group"
    SUPERGROUP = "supergroup"
    CHANNEL = "channel"

    @property
    def is_group(self) -> bool:
        return self in (ChatKind.GROUP, ChatKind.SUPERGROUP)


class AskOrigin(StrEnum):
    """Why a question was asked: `/quiz`, a round (`/quiz N`) or a daily push."""

    QUIZ = "quiz"
    ROUND = "round"
    DAILY = "daily"


@dataclass(frozen=True)
class ChatRef:
    """The chat a command or press came from."""

    id: int
    kind: ChatKind
    title: str | None = None


@dataclass(frozen=True)
class Player:
    """A Telegram user as far as scores are concerned."""

    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None

    @property
    def display_name(self) -> str:
        return full_name(self.first_name, self.last_name)


@dataclass(frozen=True)
class Ask:
    """One question sent to one chat, with the option order it was shown in."""

    id: int
    chat_id: int
    thread_id: int | None
    message_id: int | None
    deck_id: str
    question_id: str
    pass_no: int
    # option_order[position] is the index of the option shown at that position;
    # option index 0 is always the right answer.
    option_order: tuple[int, ...]
    asked_at: datetime
    # None for a question that takes a single answer and closes on it (private chats).
    closes_at: datetime | None
    closed_at: datetime | None
    round_id: int | None = None
    origin: AskOrigin = AskOrigin.QUIZ
    # The question's content hash when it was asked (None: asked before hashes were kept).
    question_hash: str | None = None

    @property
    def right_position(self) -> int:
        return self.option_order.index(0)

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None


@dataclass(frozen=True)
class PassState:
    """Which pass through a deck a chat is on and which questions it has had in it."""

    pass_no: int
    asked: frozenset[str]
    last_asked: str | None = None


@dataclass(frozen=True)
class Answer:
    ask_id: int
    user_id: int
    position: int
    correct: bool
    answered_at: datetime
    # Set by `Writes.record_answer` on the answer it stored: the learner's card of the
    # question as it was before this answer (None: never missed), read by the same statement.
    card_before: Card | None = None


@dataclass(frozen=True)
class UserStats:
    answered: int
    correct: int

    @property
    def accuracy(self) -> float:
        return self.correct / self.answered if self.answered else 0.0


@dataclass(frozen=True)
class Tally:
    """How a closed question went in a group."""

    answered: int
    correct: int
    first_right: Player | None


@dataclass(frozen=True)
class AskDraft:
    """A question chosen for a chat, before it is stored."""

    chat_id: int
    thread_id: int | None
    deck_id: str
    question_id: str
    pass_no: int
    option_order: tuple[int, ...]
    asked_at: datetime
    closes_at: datetime | None
    origin: AskOrigin = AskOrigin.QUIZ
    round_id: int | None = None
    question_hash: str | None = None


@dataclass(frozen=True)
class ChatSettings:
    id: int
    kind: ChatKind
    timezone: str | None
    deck_id: str | None
    active: bool


class RoundEnd(StrEnum):
    FINISHED = "finished"
    STOPPED = "stopped"


class RoundKind(StrEnum):
    QUIZ = "quiz"  # /quiz N
    REVIEW = "review"  # /review: the starter's due cards


@dataclass(frozen=True)
class Round:
    id: int
    chat_id: int
    thread_id: int | None
    started_by: int
    size: int
    started_at: datetime
    ended_at: datetime | None
    end_reason: RoundEnd | None = None
    kind: RoundKind = RoundKind.QUIZ
    topic: str | None = None  # `/quiz N TOPIC`: asks only from this topic of the deck

    @property
    def is_running(self) -> bool:
        return self.ended_at is None

    @property
    def is_review(self) -> bool:
        return self.kind is RoundKind.REVIEW


@dataclass(frozen=True)
class RoundScore:
    player: Player
    correct: int
    answered: int
    # Sum of (answered_at - asked_at): the faster player wins a tie on correct answers.
    total_ms: int


@dataclass(frozen=True)
class RoundQuestion:
    question_id: str
    deck_id: str
    asked_at: datetime
    correct: bool | None  # None: not answered


class PushStatus(StrEnum):
    PENDING = "pending"
    SENT = "sent"
    FAILED = "failed"
    SKIPPED = "skipped"


@dataclass(frozen=True)
class Schedule:
    chat_id: int
    local_time: str
    enabled: bool
    next_slot_at: datetime
    next_day: date


@dataclass(frozen=True)
class Push:
    """A ledger row: the daily question owed to (or delivered to) a chat for a local day."""

    chat_id: int
    local_day: date
    slot_at: datetime
    status: PushStatus
    ask_id: int | None
    message_id: int | None
    attempts: int


@dataclass(frozen=True)
class SlotDecision:
    """What to do about one due schedule: the ledger row to write and the next slot."""

    chat_id: int
    local_day: date
    slot_at: datetime
    status: PushStatus  # PENDING (send it) or SKIPPED (too late)
    next_slot_at: datetime
    next_day: date


class EffectKind(StrEnum):
    """A message the bot owes a chat, recorded with the state change that owes it."""

    QUESTION = "question"  # post an ask
    REVEAL = "reveal"  # edit a closed group question: right option, explanation, tally
    ANSWERED = "answered"  # edit a private question: the right and the chosen option marked
    EXPLANATION = "explanation"  # reply to a private answer (with `Next ▶` in a round)
    SUMMARY = "summary"  # a round's summary
    NOTICE = "notice"  # a short text, e.g. why a question could not be posted
    UNBUTTON = "unbutton"  # remove a used `Next ▶` (ask_id's `⚑ Report` stays; cosmetic)
    REPORT = "report"  # post a learner's report in the reports chat
    EXAM_RESULT = "exam_result"  # an exam's result (and its message edited to say so)


@dataclass(frozen=True)
class NewEffect:
    chat_id: int
    kind: EffectKind
    thread_id: int | None = None
    ask_id: int | None = None
    round_id: int | None = None
    user_id: int | None = None
    # For EXPLANATION in a round: the `Next ▶` button's count of questions asked so far.
    next_asked: int | None = None
    # The message an edit targets or a reply answers.
    message_id: int | None = None
    text: str | None = None
    report_id: int | None = None
    # EXAM_RESULT: the submitted exam (`message_id`: the exam's message, to close it).
    exam_id: int | None = None


@dataclass(frozen=True)
class Effect(NewEffect):
    id: int = 0
    attempts: int = 0
    not_before: datetime | None = None  # when a retry may be made; None: at once


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class PeriodKind(StrEnum):
    WEEK = "week"
    MONTH = "month"
    ALL = "all"


@dataclass(frozen=True)
class PeriodKeys:
    """The starts (aware, UTC) of the week and the month an answer falls in."""

    week_start: datetime
    month_start: datetime

    def start(self, kind: PeriodKind) -> datetime:
        if kind is PeriodKind.WEEK:
            return self.week_start
        if kind is PeriodKind.MONTH:
            return self.month_start
        return EPOCH


@dataclass(frozen=True)
class BoardRow:
    """A user's line on a leaderboard, before ranking."""

    player: Player
    correct: int
    answered: int
    reached_at: datetime | None  # their last correct answer in the period


@dataclass(frozen=True)
class BoardStanding:
    """One user's line with how many lines are strictly ahead of it, and their streaks."""

    row: BoardRow
    ahead: int
    streak: int
    best_streak: int
