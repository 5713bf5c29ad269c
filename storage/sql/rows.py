"""Times as stored (integer ms, UTC) and rows mapped by column name to the model's types."""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta

from bot.core.model import (
    EPOCH,
    Ask,
    AskOrigin,
    Effect,
    Player,
    Push,
    PushStatus,
    Round,
    RoundEnd,
    RoundKind,
    Schedule,
)
from storage.sql.conn import Row

_MS = timedelta(milliseconds=1)


def to_ms(moment: datetime) -> int:
    """A timezone-aware datetime as integer milliseconds since the epoch (UTC)."""
    if moment.tzinfo is None:
        raise ValueError("naive datetimes are ambiguous; pass an aware UTC datetime")
    return (moment - EPOCH) // _MS


def from_ms(value: int) -> datetime:
    return EPOCH + timedelta(milliseconds=value)


def optional_ms(value: int | None) -> datetime | None:
    return None if value is None else from_ms(value)


def ms_or_none(moment: datetime | None) -> int | None:
    return None if moment is None else to_ms(moment)


ASK_COLUMNS = (
    "id, chat_id, thread_id, message_id, deck_id, question_id, pass_no, option_order, "
    "asked_at, closes_at, closed_at, round_id, origin, question_hash, picks"
)


def encode_order(option_order: tuple[int, ...]) -> str:
    return ",".join(map(str, option_order))


def ask(row: Row) -> Ask:
    return Ask(
        id=row["id"],
        chat_id=row["chat_id"],
        thread_id=row["thread_id"],
        message_id=row["message_id"],
        deck_id=row["deck_id"],
        question_id=row["question_id"],
        pass_no=row["pass_no"],
        option_order=tuple(int(part) for part in row["option_order"].split(",")),
        asked_at=from_ms(row["asked_at"]),
        closes_at=optional_ms(row["closes_at"]),
        closed_at=optional_ms(row["closed_at"]),
        round_id=row["round_id"],
        origin=AskOrigin(row["origin"]),
        question_hash=row["question_hash"],
        picks=row["picks"],
    )


# Joined as `u`: the user's columns under the names `player` reads.
PLAYER_COLUMNS = "u.id AS user_id, u.first_name, u.last_name, u.username"


def player(row: Row) -> Player:
    return Player(row["user_id"], row["first_name"], row["last_name"], row["username"])


ROUND_COLUMNS = (
    "id, chat_id, thread_id, started_by, size, started_at, ended_at, end_reason, kind, topic"
)


def round_(row: Row) -> Round:
    return Round(
        id=row["id"],
        chat_id=row["chat_id"],
        thread_id=row["thread_id"],
        started_by=row["started_by"],
        size=row["size"],
        started_at=from_ms(row["started_at"]),
        ended_at=optional_ms(row["ended_at"]),
        end_reason=None if row["end_reason"] is None else RoundEnd(row["end_reason"]),
        kind=RoundKind(row["kind"]),
        topic=row["topic"],
    )


SCHEDULE_COLUMNS = "s.chat_id, s.local_time, s.enabled, s.next_slot_at, s.next_day, s.thread_id"


def schedule(row: Row) -> Schedule:
    return Schedule(
        chat_id=row["chat_id"],
        local_time=row["local_time"],
        enabled=bool(row["enabled"]),
        next_slot_at=from_ms(row["next_slot_at"]),
        next_day=date.fromisoformat(row["next_day"]),
        thread_id=row["thread_id"],
    )


PUSH_COLUMNS = "chat_id, local_day, slot_at, status, ask_id, message_id, attempts"


def push(row: Row) -> Push:
    return Push(
        chat_id=row["chat_id"],
        local_day=date.fromisoformat(row["local_day"]),
        slot_at=from_ms(row["slot_at"]),
        status=PushStatus(row["status"]),
        ask_id=row["ask_id"],
        message_id=row["message_id"],
        attempts=row["attempts"],
    )


EFFECT_COLUMNS = (
    "id, chat_id, kind, thread_id, ask_id, round_id, user_id, next_asked, message_id, text, "
    "report_id, exam_id, payload, bulk, dedupe_key, attempts, not_before"
)


def effect(row: Row) -> Effect:
    return Effect(
        id=row["id"],
        chat_id=row["chat_id"],
        kind=row["kind"],
        thread_id=row["thread_id"],
        ask_id=row["ask_id"],
        round_id=row["round_id"],
        user_id=row["user_id"],
        next_asked=row["next_asked"],
        message_id=row["message_id"],
        text=row["text"],
        report_id=row["report_id"],
        exam_id=row["exam_id"],
        payload=json.loads(row["payload"]) if row["payload"] else {},
        bulk=bool(row["bulk"]),
        dedupe_key=row["dedupe_key"],
        attempts=row["attempts"],
        not_before=from_ms(row["not_before"]),
    )
