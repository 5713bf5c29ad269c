"""Rounds: `/quiz N` asks N questions one after another and ends with a summary."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from bot.core.model import Ask, ChatRef
from bot.core.service import NewAsk, QuizService
from content.models import Question
from storage.rounds import Round, RoundRepository, RoundScore

MAX_ROUND = 20


@dataclass(frozen=True)
class RoundSummary:
    round: Round
    stopped: bool
    # Private rounds: each question with the player's result (None: not answered).
    results: list[tuple[Question, bool | None]]
    # Group rounds: the round's leaderboard.
    scores: list[RoundScore]
    duration: timedelta

    @property
    def correct(self) -> int:
        return sum(1 for _, ok in self.results if ok)


class RoundService:
    def __init__(self, quiz: QuizService) -> None:
        self.quiz = quiz
        self.rounds = RoundRepository(quiz.repo.db)

    async def start(
        self, chat: ChatRef, thread_id: int | None, user_id: int, size: int
    ) -> NewAsk | None:
        """The round's first question, or None when the chat has a round running."""
        await self.quiz.repo.upsert_chat(chat, self.quiz.clock.now())
        started = await self.rounds.start(chat.id, thread_id, user_id, size, self.quiz.clock.now())
        if started is None:
            return None
        return await self.quiz.new_ask(chat, thread_id, round_id=started.id)

    async def running(self, chat_id: int) -> Round | None:
        return await self.rounds.running(chat_id)

    async def progress(self, round_id: int) -> tuple[Round, int] | None:
        """A running round and how many questions it has asked."""
        found = await self.rounds.get(round_id)
        if found is None or found.ended_at is not None:
            return None
        return found, await self.rounds.asked(round_id)

    async def advance(
        self, chat: ChatRef, round_id: int, asked: int
    ) -> NewAsk | RoundSummary | None:
        """The next question of a round that has asked `asked` so far, or its summary after
        the last; None when the round is over or already past that point (a repeated press)."""
        state = await self.progress(round_id)
        if state is None or state[0].chat_id != chat.id or state[1] != asked:
            return None
        current, count = state
        if count >= current.size:
            return await self.finish(current, stopped=False)
        return await self.quiz.new_ask(chat, current.thread_id, round_id=current.id)

    async def after_close(self, ask: Ask, chat: ChatRef) -> NewAsk | RoundSummary | None:
        """What follows a closed group question of a round: the next one or the summary."""
        if ask.round_id is None:
            return None
        state = await self.progress(ask.round_id)
        if state is None:
            return None
        return await self.advance(chat, ask.round_id, state[1])

    async def finish(self, current: Round, *, stopped: bool) -> RoundSummary | None:
        """End the round (once) and summarise it; None when it had ended already."""
        now = self.quiz.clock.now()
        if not await self.rounds.end(current.id, "stopped" if stopped else "finished", now):
            return None
        results: list[tuple[Question, bool | None]] = []
        for item in await self.rounds.questions(current.id, current.started_by):
            question = self.quiz.question_of_id(item.deck_id, item.question_id)
            if question is not None:
                results.append((question, item.correct))
        scores = await self.rounds.scores(current.id)
        last = await self.rounds.last_answer_at(current.id) or now
        return RoundSummary(current, stopped, results, scores, last - current.started_at)

    async def open_asks(self, round_id: int) -> list[Ask]:
        return [ask for ask in await self.quiz.repo.round_asks(round_id) if not ask.is_closed]
