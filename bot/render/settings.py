"""Texts for /daily and /deck."""

from __future__ import annotations

from datetime import datetime
from html import escape
from zoneinfo import ZoneInfo

from bot.core.daily import DailyStatus
from bot.render.text import echo
from content.models import Deck

DAILY_OFF = "The daily question is off. /daily HH:MM turns it back on."


def _when(moment: datetime, zone: ZoneInfo) -> str:
    local = moment.astimezone(zone)
    return f"{local:%a %d %b, %H:%M} {escape(zone.key)}"


def daily_on(local_time: str, zone: ZoneInfo, next_at: datetime) -> str:
    return (
        f"✅ Daily question every day at <b>{local_time}</b> {escape(zone.key)}.\n"
        f"Next one: {_when(next_at, zone)}."
    )


def daily_status(status: DailyStatus) -> str:
    schedule = status.schedule
    if schedule is None or not schedule.enabled:
        return f"The daily question is off. Turn it on with /daily 09:00 {status.zone.key}."
    return (
        f"📅 Daily question: on, every day at <b>{schedule.local_time}</b> "
        f"{escape(status.zone.key)}.\nNext one: {_when(schedule.next_slot_at, status.zone)}."
    )


def deck_list(current: Deck, decks: list[Deck]) -> str:
    lines = [f"📚 This chat's deck: <b>{escape(current.title)}</b> (<code>{current.id}</code>)"]
    others = [deck for deck in decks if deck.id != current.id]
    if others:
        lines += ["", "Other decks (switch with /deck ID):"]
        lines += [
            f"• <code>{d.id}</code> — {escape(d.title)} ({len(d.questions)} questions)"
            for d in others
        ]
    return "\n".join(lines)


def unknown_deck(deck_id: str, decks: list[Deck]) -> str:
    known = ", ".join(d.id for d in decks)
    return f"There is no deck “{echo(deck_id)}”. Decks: {escape(known)}."


def deck_chosen(deck: Deck) -> str:
    return f"📚 This chat now uses <b>{escape(deck.title)}</b>."
