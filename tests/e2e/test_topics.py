"""Topics end to end on the shipped deck: /topics, /quiz [N] TOPIC, and the mastery in /me."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from random import Random

import pytest

from bot.app import RunningBot, running_bot
from bot.config import Settings
from bot.core.model import EPOCH, Ask
from bot.playground.botapi import ApiCall, BotApiServer, StoredMessage
from tests.e2e.conftest import ALICE, alice_private, wait_for_polling
from tests.e2e.helpers.group import GROUP, MEMBERS, TOPIC, close_open_questions, group_quiz
from tests.fakes.clock import FakeClock

TOPIC_OF = re.compile(r"^❓ <b>[^<]*</b> · <i>([^<]*)</i>")


@pytest.fixture
async def shipped(
    settings: Settings, clock: FakeClock, fake: BotApiServer
) -> AsyncIterator[RunningBot]:
    """The bot on the shipped default deck (its 11 topics)."""
    default = settings.model_copy(
        update={"default_deck": Settings.model_fields["default_deck"].default}
    )
    async with running_bot(default, clock=clock, poll_timeout=1, rng=Random(11)) as running:
        await wait_for_polling(fake)
        yield running


async def _say(fake: BotApiServer, text: str) -> str:
    """Alice's private command and the text of the bot's first message after it."""
    since = len(fake.calls)
    fake.send_message(alice_private(), ALICE, text)
    call = await fake.wait_for_call("sendMessage", since=since)
    return str(call.params["text"])


def _topic(text: str) -> str:
    found = TOPIC_OF.match(text)
    assert found is not None, text
    return found[1]


async def _questions_sent(fake: BotApiServer, chat_id: int) -> list[ApiCall]:
    await fake.idle()
    return [
        c
        for c in fake.calls_to("sendMessage")
        if c.params["chat_id"] == chat_id and str(c.params["text"]).startswith("❓")
    ]


async def _ask_of(bot: RunningBot, question: StoredMessage) -> Ask:
    ask = await bot.store.get_ask(int(question.callback_data[0].split(":")[1]))
    assert ask is not None
    return ask


async def _answer(
    fake: BotApiServer, bot: RunningBot, question: StoredMessage, *, right: bool
) -> StoredMessage:
    """Alice presses the right (or a wrong) option; the explanation reply that follows."""
    ask = await _ask_of(bot, question)
    position = ask.right_position if right else (ask.right_position + 1) % len(ask.option_order)
    since = len(fake.calls)
    fake.press_button(alice_private(), ALICE, question.message_id, question.callback_data[position])
    call = await fake.wait_for_call(
        "sendMessage", lambda c: "💡" in str(c.params["text"]), since=since
    )
    return fake.message(ALICE.id, call.result["message_id"])


async def _private_round(
    fake: BotApiServer, bot: RunningBot, command: str, rights: list[bool]
) -> list[tuple[str, Ask]]:
    """Alice plays a private round, right or wrong as `rights` says: each question's topic as
    shown and its ask."""
    since = len(fake.calls)
    fake.send_message(alice_private(), ALICE, command)
    asked = []
    for number, right in enumerate(rights):
        call = await fake.wait_for_call(
            "sendMessage", lambda c: str(c.params["text"]).startswith("❓"), since=since
        )
        question = fake.message(ALICE.id, call.result["message_id"])
        asked.append((_topic(str(call.params["text"])), await _ask_of(bot, question)))
        since = len(fake.calls)
        reply = await _answer(fake, bot, question, right=right)
        if number < len(rights) - 1:
            fake.press_button(alice_private(), ALICE, reply.message_id, reply.button("Next"))
    return asked


def _topics(asked: list[tuple[str, Ask]]) -> list[str]:
    return [topic for topic, _ in asked]


def _rows(text: str) -> list[str]:
    return text.split("<pre>")[1].split("</pre>")[0].split("\n")


async def test_topics_before_and_after_answering_within_the_90_day_window(
    fake: BotApiServer, shipped: RunningBot, clock: FakeClock
) -> None:
    """/topics starts with all 11 topics not started; after a round on nccl (2 of 3 right) nccl
    leads, weakest first, with its review due the next day; 91 days on the answers no longer
    count but the review is still due."""
    before = await _say(fake, "/topics")
    rows = _rows(before)
    assert len(rows) == 11
    assert all("not started" in row for row in rows)
    assert "🔁 No reviews due." in before
    played = await _private_round(fake, shipped, "/quiz 3 nccl", [True, False, True])
    assert _topics(played) == ["nccl"] * 3
    clock.advance(days=1)
    after = await _say(fake, "/topics")
    rows = _rows(after)
    assert rows[0].startswith("nccl ")
    assert "(2/3)" in rows[0]
    assert rows[0].endswith("1 due")
    assert all("not started" in row for row in rows[1:])
    assert "🔁 <b>1</b> review due in all." in after
    assert "👉 Weakest: <b>nccl</b> — practise it with /quiz 5 nccl" in after
    clock.advance(days=91)
    later = _rows(await _say(fake, "/topics"))
    nccl = next(row for row in later if row.startswith("nccl "))
    assert "not started" in nccl
    assert nccl.endswith("1 due")


async def test_quiz_3_nccl_asks_only_nccl_questions(
    fake: BotApiServer, shipped: RunningBot
) -> None:
    """A round on a topic asks three different questions, all of that topic."""
    played = await _private_round(fake, shipped, "/quiz nccl 3", [True, True, True])
    assert _topics(played) == ["nccl"] * 3
    assert len({ask.question_id for _, ask in played}) == 3
    assert {ask.round_id for _, ask in played} != {None}
    assert len(await _questions_sent(fake, ALICE.id)) == 3


async def test_a_prefix_finds_its_topic_and_an_ambiguous_one_lists_them(
    fake: BotApiServer, shipped: RunningBot
) -> None:
    """`/quiz net` asks a networking question; `/quiz in` (inference or interconnects) gets
    the topic list and asks nothing."""
    assert _topic(await _say(fake, "/quiz net")) == "networking"
    listed = await _say(fake, "/quiz in")
    assert "<code>in</code> could be <b>inference</b> or <b>interconnects</b>" in listed
    deck = await shipped.services.chats.deck_for(ALICE.id)
    topology = sum(q.topic == "topology" for q in deck.questions)
    assert f"• topology ({topology})" in listed
    assert len(await _questions_sent(fake, ALICE.id)) == 1


async def test_an_unknown_topic_lists_the_topics_and_writes_nothing(
    fake: BotApiServer, shipped: RunningBot
) -> None:
    """`/quiz 5 <b>cuda` echoes the name safely, lists the 11 topics, and asks nothing."""
    listed = await _say(fake, "/quiz 5 <b>cuda")
    assert listed.startswith("🤔 I don't know the topic <code>&lt;b&gt;cuda</code>.")
    assert listed.count("\n• ") == 11
    assert await _questions_sent(fake, ALICE.id) == []
    # The reply is owed like any (so the chat is known); no question, round or pass is stored.
    assert await shipped.store.running_round(ALICE.id) is None
    assert (await shipped.store.pass_state(ALICE.id, "nca-multi-gpu")).asked == frozenset()
    assert await shipped.store.running_round(ALICE.id) is None
    assert await shipped.store.history(ALICE.id, "nca-multi-gpu", EPOCH) == []


async def test_me_shows_the_mastery_block_and_points_at_the_weakest(
    fake: BotApiServer, shipped: RunningBot
) -> None:
    """Below the stats, private /me shows a <pre> block of the topics started, weakest first,
    and the command to practise the weakest."""
    await _private_round(fake, shipped, "/quiz 2 storage", [False, False])
    await _private_round(fake, shipped, "/quiz 2 topo", [True, True])
    me = await _say(fake, "/me")
    assert me.startswith("📊 <b>Your score here</b>")
    assert me.index("Accuracy") < me.index("🎯 <b>Mastery</b> (last 90 days)")
    rows = _rows(me)
    assert [row.split()[0] for row in rows] == ["storage", "topology"]
    assert re.fullmatch(r"storage   ░{10}   0%  \(0/2\)", rows[0])
    assert "(2/2)" in rows[1]
    assert "…and 9 more in /topics" in me
    assert me.endswith("👉 Weakest: <b>storage</b> — practise it with /quiz 5 storage")


async def test_group_quiz_on_a_topic_and_topics_for_a_member(
    fake: BotApiServer, shipped: RunningBot, clock: FakeClock
) -> None:
    """In a group /quiz stor asks a storage question in the forum topic, /quiz 2 inf runs a
    round of inference questions, and /topics is the member's own, named."""
    question = await group_quiz(fake, MEMBERS[0], text="/quiz stor")
    assert _topic(question.text or "") == "storage"
    assert question.thread_id == TOPIC
    await close_open_questions(fake, shipped, clock)
    first = await group_quiz(fake, MEMBERS[1], text="/quiz 2 inf")
    assert _topic(first.text or "") == "inference"
    await close_open_questions(fake, shipped, clock)
    asked = await _questions_sent(fake, GROUP.id)
    assert [_topic(str(c.params["text"])) for c in asked] == ["storage", "inference", "inference"]
    since = len(fake.calls)
    fake.send_message(GROUP, MEMBERS[2], "/topics", thread_id=TOPIC)
    call = await fake.wait_for_call("sendMessage", since=since)
    assert str(call.params["text"]).startswith("📚 <b>Member2's topics</b>")
    assert call.params["message_thread_id"] == TOPIC
