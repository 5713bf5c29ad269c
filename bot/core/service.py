"""The quiz as the bot's handlers see it: ask a question, take an answer, close, report scores."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from random import Random
from zoneinfo import ZoneInfo

from bot.core.clock import Clock
from bot.core.model import Ask, ChatRef, Player, Tally, UserStats
from bot.core.leaderboard import Leaderboard, PlayerSummary
from bot.core.periods import PeriodKind, period_keys, period_start
from bot.core.scoring import AlreadyAnswered, AnswerResult, Invalid, Recorded, TooLate, is_correct
from bot.core.selection import next_question, shuffled_option_order
from content.models import Deck, Question
from storage.chats import ChatRepository
from storage.db import Database
from storage.leaderboards import LeaderboardRepository
from storage.repository import Repository

UTC_ZONE = ZoneInfo("UTC")
GROUP_OPEN = timedelta(seconds=300)
ROUND_OPEN = timedelta(seconds=60)


@dataclass(frozen=True)
class QuizConfig:
    default_zone: ZoneInfo = UTC_ZONE
    group_open: timedelta = GROUP_OPEN
    round_open: timedelta = ROUND_OPEN


@dataclass(frozen=True)
class NewAsk:
    ask: Ask
    question: Question


@dataclass(frozen=True)
class Reveal:
    """A group question that has just closed, with how it went."""

    ask: Ask
    question: Question
    tally: Tally


class QuizService:
    def __init__(
        self,
        db: Database,
        decks: Mapping[str, Deck],
        clock: Clock,
        *,
        config: QuizConfig | None = None,
        default_deck_id: str | None = None,
        rng: Random | None = None,
    ) -> None:
        if not decks:
            raise ValueError("at least one deck is needed")
        self.repo = Repository(db)
        self.chats = ChatRepository(db)
        self.boards = LeaderboardRepository(db)
        self.decks = decks
        self.clock = clock
        self.config = config or QuizConfig()
        self.default_deck_id = default_deck_id or sorted(decks)[0]
        if self.default_deck_id not in decks:
            raise ValueError(f"unknown default deck {self.default_deck_id!r}")
        self.rng = rng or Random()
        # Zones are read on every answer; they change only through set_timezone and move_chat.
        self._zones: dict[int, ZoneInfo] = {}
        self._deck_ids: dict[int, str] = {}

    async def deck_for(self, chat_id: int) -> Deck:
        """The chat's deck (`/deck`), or the default one."""
        deck_id = self._deck_ids.get(chat_id)
        if deck_id is None:
            settings = await self.chats.get(chat_id)
            deck_id = settings.deck_id if settings and settings.deck_id else self.default_deck_id
            self._deck_ids[chat_id] = deck_id
        return self.decks.get(deck_id) or self.decks[self.default_deck_id]

    async def set_deck(self, chat: ChatRef, deck_id: str) -> Deck:
        deck = self.decks[deck_id]
        await self.repo.upsert_chat(chat, self.clock.now())
        await self.chats.set_deck(chat.id, deck_id)
        self._deck_ids[chat.id] = deck_id
        return deck

    def question_of(self, ask: Ask) -> Question | None:
        return self.question_of_id(ask.deck_id, ask.question_id)

    def question_of_id(self, deck_id: str, question_id: str) -> Question | None:
        deck = self.decks.get(deck_id)
        if deck is None:
            return None
        return next((q for q in deck.questions if q.id == question_id), None)

    async def zone_of(self, chat_id: int) -> ZoneInfo:
        zone = self._zones.get(chat_id)
        if zone is None:
            zone = await self.boards.chat_zone(chat_id, self.config.default_zone)
            self._zones[chat_id] = zone
        return zone

    async def new_ask(
        self,
        chat: ChatRef,
        thread_id: int | None = None,
        *,
        round_id: int | None = None,
        open_for: timedelta | None = None,
        known_chat: bool = False,
    ) -> NewAsk:
        """Choose the chat's next question and store the ask (its message id comes later).

        Group questions get a deadline (`open_for`, else the on-demand or round default); a
        private one closes on its first answer.
        """
        now = self.clock.now()
        if not known_chat:
            await self.repo.upsert_chat(chat, now)
        deck = await self.deck_for(chat.id)
        state = await self.repo.pass_state(chat.id, deck.id)
        question, pass_no = next_question(deck, state, self.rng)
        if open_for is None:
            open_for = self.config.round_open if round_id is not None else self.config.group_open
        ask = await self.repo.create_ask(
            chat_id=chat.id,
            thread_id=thread_id,
            deck_id=deck.id,
            question_id=question.id,
            pass_no=pass_no,
            option_order=shuffled_option_order(len(question.options), self.rng),
            asked_at=now,
            closes_at=now + open_for if chat.kind.is_group else None,
            round_id=round_id,
        )
        return NewAsk(ask, question)

    async def attach_message(self, ask: Ask, message_id: int) -> None:
        await self.repo.set_ask_message(ask.id, message_id)

    async def discard_ask(self, ask: Ask) -> None:
        await self.repo.delete_ask(ask.id)

    async def answer(
        self, *, chat_id: int, message_id: int | None, ask_id: int, position: int, player: Player
    ) -> AnswerResult:
        """Check a press against the stored ask and record it if it is the user's first."""
        ask = await self.repo.get_ask(ask_id)
        if ask is None or ask.chat_id != chat_id:
            return Invalid("no such question in this chat")
        if message_id is not None and ask.message_id is not None and ask.message_id != message_id:
            return Invalid("the button does not belong to this message")
        if not 0 <= position < len(ask.option_order):
            return Invalid("no such option")
        question = self.question_of(ask)
        if question is None:
            return Invalid("the question is no longer in its deck")
        now = self.clock.now()
        if ask.is_closed or (ask.closes_at is not None and ask.closes_at <= now):
            existing = await self.repo.get_answer(ask.id, player.id)
            if existing is not None:
                return AlreadyAnswered(ask, question, existing)
            return TooLate(ask, question)
        recorded = await self.repo.record_answer(
            ask,
            player,
            position,
            is_correct(ask, position),
            now,
            close=ask.closes_at is None,
            periods=period_keys(now, await self.zone_of(chat_id)),
        )
        if not recorded.is_new:
            return AlreadyAnswered(ask, question, recorded.answer)
        return Recorded(ask, question, recorded.answer)

    async def answer_count(self, ask: Ask) -> int:
        return await self.repo.answer_count(ask.id)

    async def due_asks(self) -> list[Ask]:
        return await self.repo.due_asks(self.clock.now())

    async def close(self, ask: Ask) -> Reveal | None:
        """Close a group question; None when it was closed already or its question is gone."""
        if not await self.repo.close_ask(ask.id, self.clock.now()):
            return None
        question = self.question_of(ask)
        if question is None:
            return None
        return Reveal(ask, question, await self.repo.tally(ask.id))

    async def stats(self, chat_id: int, user_id: int) -> UserStats:
        return await self.repo.user_stats(chat_id, user_id)

    async def leaderboard(self, chat_id: int, kind: PeriodKind, viewer_id: int) -> Leaderboard:
        start = period_start(kind, self.clock.now(), await self.zone_of(chat_id))
        return await self.boards.top(chat_id, kind, start, viewer_id=viewer_id)

    async def player_summary(self, chat_id: int, user_id: int) -> PlayerSummary | None:
        week = period_start(PeriodKind.WEEK, self.clock.now(), await self.zone_of(chat_id))
        return await self.boards.player_summary(chat_id, user_id, week)

    async def set_timezone(self, chat: ChatRef, zone: ZoneInfo) -> None:
        """Use `zone` for the chat's weeks and months from now on, past answers included."""
        await self.repo.upsert_chat(chat, self.clock.now())
        await self.chats.set_timezone(chat.id, zone.key)
        self._zones.pop(chat.id, None)
        await self.boards.rebuild_chat(chat.id, zone)

    async def chat_removed(self, chat_id: int) -> None:
        await self.chats.set_active(chat_id, False)

    async def chat_joined(self, chat: ChatRef) -> None:
        await self.repo.upsert_chat(chat, self.clock.now())
        await self.chats.set_active(chat.id, True)

    async def is_active(self, chat_id: int) -> bool:
        settings = await self.chats.get(chat_id)
        return settings is None or settings.active

    async def move_chat(self, old_id: int, new_id: int) -> None:
        for cache in (self._zones, self._deck_ids):
            cache.pop(old_id, None)
            cache.pop(new_id, None)
        if await self.chats.move(old_id, new_id):
            await self.boards.rebuild_chat(new_id, await self.zone_of(new_id))
