"""Owed messages (effects): recorded with the state change that owes them, sent after it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum


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
