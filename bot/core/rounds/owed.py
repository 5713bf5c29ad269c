"""What rounds owe: the summary at the end, and `Next ▶` taken off a used explanation."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.chats import ChatService
from bot.core.delivery import OwedKind
from bot.core.model import Effect, NewEffect, Round
from bot.core.rounds.summary import RoundSummaries, RoundSummary

SUMMARY = "summary"
UNBUTTON = "unbutton"


@dataclass(frozen=True)
class ShowSummary:
    effect: Effect
    summary: RoundSummary
    group: bool


@dataclass(frozen=True)
class RemoveButton:
    """`Next ▶` removed from a used explanation (cosmetic; its `⚑ Report` stays)."""

    effect: Effect
    message_id: int


class SummaryKind(OwedKind[ShowSummary]):
    name = SUMMARY

    def __init__(self, summaries: RoundSummaries, chats: ChatService) -> None:
        self._summaries = summaries
        self._chats = chats

    async def prepare(self, effect: Effect) -> ShowSummary | None:
        if effect.round_id is None:
            return None
        summary = await self._summaries.of(effect.round_id)
        if summary is None:
            return None
        settings = await self._chats.settings(effect.chat_id)
        return ShowSummary(effect, summary, settings is not None and settings.kind.is_group)


class UnbuttonKind(OwedKind[RemoveButton]):
    name = UNBUTTON

    async def prepare(self, effect: Effect) -> RemoveButton | None:
        return None if effect.message_id is None else RemoveButton(effect, effect.message_id)


def summary_of(current: Round) -> NewEffect:
    return NewEffect(current.chat_id, SUMMARY, thread_id=current.thread_id, round_id=current.id)
