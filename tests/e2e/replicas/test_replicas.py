"""Two replicas of the real bot in webhook mode on one PostgreSQL database, behind the fake Bot
API delivering round-robin: every update is handled once, one replica leads, and together they
keep to a group's flood limit."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from contextlib import AsyncExitStack
from dataclasses import dataclass

import asyncpg

from bot.playground.botapi import BotApiServer, FakeChat, FakeUser, RateLimits
from tests.e2e.helpers.group import MEMBERS
from tests.e2e.replicas.helpers import (
    OPEN_SECONDS,
    Replica,
    answer_rows,
    ask_ids,
    ask_of_data,
    ask_on_record,
    beaten,
    help_replies,
    most_in_window,
    question_sends,
    questions_in,
    replica,
    replies_to,
    reveals,
    sends_to,
    settle,
    until,
)
from tests.fakes.clock import FakeClock

GROUP = FakeChat.supergroup(-1009900000001, "Replicated study group", forum=True)
LEARNERS = [FakeUser(3000 + i, f"Learner{i}") for i in range(6)]
ROUND = 3


@dataclass(frozen=True)
class Question:
    chat_id: int
    message_id: int
    ask_id: int
    data: list[str]  # the answer buttons' data, as sent
    right: int


async def _question(
    fake: BotApiServer, pair: list[Replica], chat_id: int, number: int, *, topic: int | None = None
) -> Question:
    """The chat's `number`-th question (1-based; in `topic` if given), once the bot has its
    message on record."""

    def found() -> list[int]:
        return [
            q.message_id
            for q in questions_in(fake, chat_id)
            if topic is None or q.thread_id == topic
        ]

    await fake.wait_until(lambda: len(found()) >= number, 10, what=f"question {number}")
    message = fake.message(chat_id, found()[number - 1])
    ask_id = ask_of_data(message.callback_data[0])
    assert ask_id is not None
    await ask_on_record(pair[0].running, ask_id)
    ask = await pair[0].running.store.get_ask(ask_id)
    assert ask is not None
    return Question(chat_id, message.message_id, ask_id, message.callback_data, ask.right_position)


async def _play_group(
    fake: BotApiServer, pair: list[Replica], clock: FakeClock, presses: set[tuple[int, int]]
) -> list[Question]:
    """Three topics' questions: twelve members press each, some twice on one letter or then on
    another; the questions close; four more members press too late."""
    questions = []
    for topic in (11, 12, 13):
        fake.send_message(GROUP, MEMBERS[topic], "/quiz", thread_id=topic)
        questions.append(await _question(fake, pair, GROUP.id, 1, topic=topic))
    queries: list[str] = []
    for q in questions:
        for n, member in enumerate(MEMBERS[:12]):
            pick = q.data[q.right if n % 3 else (q.right + 1) % 4]
            queries.append(fake.press_button(GROUP, member, q.message_id, pick))
            if n < 4:  # the same button twice
                queries.append(fake.press_button(GROUP, member, q.message_id, pick))
            elif n < 6:  # then another letter
                other = q.data[(q.data.index(pick) + 2) % 4]
                queries.append(fake.press_button(GROUP, member, q.message_id, other))
            presses.add((q.ask_id, member.id))
    alerts = [(await fake.callback_answer(query, timeout=10)).text or "" for query in queries]
    assert sum(a.startswith("You already answered") for a in alerts) == 3 * 6
    assert sum(a.startswith(("✅ Correct!", "❌ Not quite")) for a in alerts) == 3 * 12
    await settle(fake, pair)
    clock.advance(seconds=OPEN_SECONDS + 1)  # the leader's ticker closes them within a second
    await fake.wait_until(
        lambda: all(reveals(fake, GROUP.id, q.message_id) for q in questions),
        10,
        what="every reveal",
    )
    late = [
        fake.press_button(GROUP, member, q.message_id, q.data[q.right])
        for q in questions
        for member in MEMBERS[44:48]
    ]
    for query in late:
        text = (await fake.callback_answer(query, timeout=10)).text or ""
        assert text.startswith("This question has closed"), text
    return questions


async def _explained(fake: BotApiServer, q: Question) -> None:
    await fake.wait_until(
        lambda: bool(replies_to(fake, q.chat_id, q.message_id)), 10, what="the explanation"
    )


async def _play_round(
    fake: BotApiServer, pair: list[Replica], learner: FakeUser, presses: set[tuple[int, int]]
) -> list[Question]:
    """/quiz 3 in private: answer each (some twice), press Next (some twice), then /me, /help."""
    chat = FakeChat.private(learner)
    twice = learner.id % 2 == 0
    fake.send_message(chat, learner, f"/quiz {ROUND}")
    questions = []
    for number in range(1, ROUND + 1):
        q = await _question(fake, pair, chat.id, number)
        questions.append(q)
        pick = q.data[q.right if number % 2 else (q.right + 1) % 4]
        fake.press_button(chat, learner, q.message_id, pick)
        if twice:
            fake.press_button(chat, learner, q.message_id, pick)
        presses.add((q.ask_id, learner.id))
        await _explained(fake, q)
        if number < ROUND:
            (explanation,) = replies_to(fake, chat.id, q.message_id)
            next_data = explanation.button("Next")
            fake.press_button(chat, learner, explanation.message_id, next_data)
            if twice:
                fake.press_button(chat, learner, explanation.message_id, next_data)
    fake.send_message(chat, learner, "/me")
    fake.send_message(chat, learner, "/help")
    return questions


def _group_commands(fake: BotApiServer) -> tuple[list[int], int]:
    """/me and /leaderboard (answered quoting the command) and /help, from different members."""
    quoted = []
    for n, member in enumerate(MEMBERS[20:32]):
        text = ("/me", "/leaderboard", "/help")[n % 3]
        sent = fake.send_message(GROUP, member, text, thread_id=11 + n % 3)
        if text != "/help":
            quoted.append(int(sent["message_id"]))
    return quoted, 4


async def _answers_per_score(database: str) -> list[tuple[int, int, int, int]]:
    """(chat, user, answers rows, answered on the all-time score) where the two differ."""
    conn = await asyncpg.connect(database)
    try:
        rows = await conn.fetch(
            "SELECT s.chat_id, s.user_id, s.answered, "
            "(SELECT count(*) FROM answers a WHERE a.chat_id = s.chat_id "
            "AND a.user_id = s.user_id) AS rows FROM period_scores s WHERE s.period = 'all'"
        )
    finally:
        await conn.close()
    return [
        (r["chat_id"], r["user_id"], r["rows"], r["answered"])
        for r in rows
        if r["rows"] != r["answered"]
    ]


async def test_two_replicas_handle_every_press_and_command_once_and_send_nothing_twice(
    fake: BotApiServer, pair: list[Replica], clock: FakeClock, pg_migrated_url: str
) -> None:
    """Group and private play spread over two replicas: each press, command and message once."""
    presses: set[tuple[int, int]] = set()
    quoted, helps = _group_commands(fake)
    group, *rounds = await asyncio.gather(
        _play_group(fake, pair, clock, presses),
        *(_play_round(fake, pair, learner, presses) for learner in LEARNERS),
    )
    await settle(fake, pair)

    rows = await answer_rows(pg_migrated_url)
    assert len(rows) == len(presses)
    assert set(rows) == presses
    assert await _answers_per_score(pg_migrated_url) == []

    for message_id in quoted:
        assert len(replies_to(fake, GROUP.id, message_id)) == 1, message_id
    assert len(help_replies(fake, GROUP.id)) == helps
    for learner in LEARNERS:
        assert len(help_replies(fake, learner.id)) == 1
        me = [m for m in fake.chat_messages(learner.id) if m.text == "/me"]
        assert [len(replies_to(fake, learner.id, m.message_id)) for m in me] == [1]

    asks = await ask_ids(pg_migrated_url)
    assert len(asks) == 3 + ROUND * len(LEARNERS)
    sends = question_sends(fake)
    assert set(sends) == asks
    assert set(sends.values()) == {1}
    for q in group:
        assert len(reveals(fake, GROUP.id, q.message_id)) == 1
    for questions in rounds:
        for q in questions:
            assert len(replies_to(fake, q.chat_id, q.message_id)) == 1  # its explanation
    # Nothing else twice either: no two bot messages alike in chat, quoted message and text
    # (the group's /help answers, which quote nothing, are counted above).
    sent = Counter(
        (m.chat_id, m.reply_to, m.text)
        for chat in [GROUP, *map(FakeChat.private, LEARNERS)]
        for m in fake.bot_messages(chat.id)
        if m not in help_replies(fake, GROUP.id)
    )
    assert [key for key, times in sent.items() if times > 1] == []

    assert fake.webhook.pending == 0
    used = {a.url for a in fake.webhook.attempts if a.ok}
    assert used == {r.url for r in pair}


async def test_exactly_one_replica_leads_and_the_other_takes_over_and_closes_questions(
    fake: BotApiServer, pg_migrated_url: str, clock: FakeClock
) -> None:
    """One leader of two; when it stops the other leads within 5 s and reveals a question once."""
    fake.webhook.retry_delay = 0.01
    async with AsyncExitStack() as outer:
        stacks = [AsyncExitStack(), AsyncExitStack()]
        for stack in stacks:
            outer.push_async_callback(stack.aclose)
        pair = [
            await stack.enter_async_context(replica(fake, pg_migrated_url, clock, seed))
            for seed, stack in enumerate(stacks)
        ]
        fake.webhook.replicas = [r.url for r in pair]
        await beaten(pair)
        assert [r.leader.leading for r in pair].count(True) == 1
        await beaten(pair)
        assert [r.leader.leading for r in pair].count(True) == 1
        index = next(i for i, r in enumerate(pair) if r.leader.leading)
        leader, follower = pair[index], pair[1 - index]
        fake.send_message(GROUP, MEMBERS[0], "/quiz", thread_id=5)
        q = await _question(fake, pair, GROUP.id, 1, topic=5)
        await settle(fake, pair)

        await stacks[index].aclose()  # the leader stops
        stopped = time.monotonic()
        assert not leader.leader.leading
        fake.webhook.replicas = [follower.url]
        await until(lambda: follower.leader.leading, 5, "the other replica to lead")
        assert time.monotonic() - stopped < 5

        assert reveals(fake, GROUP.id, q.message_id) == []
        clock.advance(seconds=OPEN_SECONDS + 1)  # the deadline passes after the switch
        await fake.wait_until(
            lambda: bool(reveals(fake, GROUP.id, q.message_id)), 5, what="the reveal"
        )
        for _ in range(2):  # more ticks find nothing more to reveal
            await follower.running.ticker.tick()
        await settle(fake, [follower])
        assert len(reveals(fake, GROUP.id, q.message_id)) == 1
        late = fake.press_button(GROUP, MEMBERS[1], q.message_id, q.data[q.right])
        text = (await fake.callback_answer(late)).text or ""
        assert text.startswith("This question has closed")


async def test_two_replicas_together_keep_a_group_within_20_messages_a_minute(
    fake: BotApiServer, pg_migrated_url: str, clock: FakeClock
) -> None:
    """With real (scaled) flood limits, both replicas' sends to one group fit its window."""
    scale = 30
    window = 60.0 / scale
    fake.limits = RateLimits(factor=scale)
    fake.webhook.retry_delay = 0.01
    async with (
        replica(fake, pg_migrated_url, clock, 1, rate_limit_scale=scale) as first,
        replica(fake, pg_migrated_url, clock, 2, rate_limit_scale=scale) as second,
    ):
        pair = [first, second]
        fake.webhook.replicas = [r.url for r in pair]
        await beaten(pair)  # each now keeps to half of the group's window
        started = time.monotonic()
        topics = range(101, 131)
        for n, topic in enumerate(topics):
            fake.send_message(GROUP, MEMBERS[n], "/quiz", thread_id=topic)
            if n % 3 == 0:
                fake.send_message(GROUP, MEMBERS[n + 30], "/help", thread_id=topic)
        helps = len(range(0, len(topics), 3))
        await fake.wait_until(
            lambda: (
                len(questions_in(fake, GROUP.id)) == len(topics)
                and len(help_replies(fake, GROUP.id)) == helps
            ),
            20,
            what="every question and /help answer",
        )
        first_q = await _question(fake, pair, GROUP.id, 1)
        presses = [
            fake.press_button(GROUP, member, first_q.message_id, first_q.data[first_q.right])
            for member in MEMBERS[40:60]
        ]
        for query in presses:
            await fake.callback_answer(query, timeout=10)
        await settle(fake, pair)
        took = time.monotonic() - started
    calls = sends_to(fake, GROUP.id)
    assert [c for c in calls if c.status == 429] == []
    assert fake.rejected_429 == 0
    assert len(calls) >= len(topics) + helps > 20  # more than one window's worth
    assert took > window  # ...so they had to wait for it
    assert most_in_window([c.time for c in calls], window) <= 20


async def test_a_crowd_sending_quiz_to_both_replicas_at_once_gets_one_question(
    fake: BotApiServer, pair: list[Replica]
) -> None:
    """Twenty simultaneous /quiz spread over two replicas: one question in the topic."""
    for member in MEMBERS[:20]:
        fake.send_message(GROUP, member, "/quiz", thread_id=5)
    await fake.wait_for_call("sendMessage", lambda c: bool(c.params.get("reply_markup")))
    await settle(fake, pair)
    questions = [m for m in fake.bot_messages(GROUP.id) if m.callback_data]
    assert len(questions) == 1
