"""`/review`: a miss anywhere becomes a card due in the learner's private chat; reviews move it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from random import Random

from bot.app import RunningBot, running_bot
from bot.config import Settings
from bot.playground.botapi import BotApiServer, FakeChat, FakeUser
from tests.e2e.conftest import ALICE, alice_private, wait_for_polling
from tests.e2e.helpers.daily import fan_out
from tests.e2e.helpers.group import (
    GROUP,
    TOPIC,
    ask_id_of,
    close_open_questions,
    group_quiz,
    press_all,
    right_and_wrong,
)
from tests.fakes.clock import FakeClock


async def _private(fake: BotApiServer, text: str, user: FakeUser = ALICE) -> str:
    since = len(fake.calls)
    fake.send_message(FakeChat.private(user), user, text)
    call = await fake.wait_for_call("sendMessage", since=since)
    return str(call.params["text"])


async def _miss_in_group(fake: BotApiServer, bot: RunningBot, clock: FakeClock) -> str:
    question = await group_quiz(fake)
    ask_id = ask_id_of(question)
    _, wrong, _ = await right_and_wrong(bot, question)
    await press_all(fake, question, [(ALICE, wrong)])
    await close_open_questions(fake, bot, clock)
    ask = await bot.store.get_ask(ask_id)
    assert ask is not None
    return ask.question_id


async def test_a_group_miss_is_due_in_private_review_the_next_day(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """Missed in a group today: nothing due until tomorrow, then /review asks that question."""
    question_id = await _miss_in_group(fake, bot, clock)
    early = await _private(fake, "/review")
    assert early.startswith("✅ Nothing to review right now.")
    assert "Next review due" in early
    clock.advance(days=1)
    since = len(fake.calls)
    fake.send_message(alice_private(), ALICE, "/review")
    call = await fake.wait_for_call("sendMessage", since=since)
    posted = fake.message(ALICE.id, call.result["message_id"])
    ask = await bot.store.get_ask(ask_id_of(posted))
    assert ask is not None
    assert ask.question_id == question_id
    fake.press_button(
        alice_private(), ALICE, posted.message_id, posted.callback_data[ask.right_position]
    )
    done = await fake.wait_for_call(
        "sendMessage", lambda c: "🏁" in str(c.params["text"]), since=since
    )
    text = str(done.params["text"])
    assert "<b>Review over</b>: 1 of 1 right" in text
    assert "Next review due" in text
    cards = await bot.store.due_cards(ALICE.id, ask.deck_id, clock.now(), 10)
    assert cards == []
    [card] = await bot.store.leeches(ALICE.id, ask.deck_id) or [None]  # not a leech
    assert card is None


async def test_review_in_a_group_points_to_the_private_chat(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """/review in a group answers with a link button that opens the private chat."""
    since = len(fake.calls)
    fake.send_message(GROUP, ALICE, "/review", thread_id=TOPIC)
    call = await fake.wait_for_call("sendMessage", since=since)
    buttons = call.params["reply_markup"]["inline_keyboard"][0]
    assert buttons[0]["url"].endswith("?start=review")


async def test_nothing_due_offers_a_normal_question(fake: BotApiServer, bot: RunningBot) -> None:
    """With no cards, /review says so and its button asks an ordinary question."""
    since = len(fake.calls)
    fake.send_message(alice_private(), ALICE, "/review")
    call = await fake.wait_for_call("sendMessage", since=since)
    assert "No cards to review" in str(call.params["text"])
    reply = fake.message(ALICE.id, call.result["message_id"])
    fake.press_button(alice_private(), ALICE, reply.message_id, reply.callback_data[0])
    question = await fake.wait_for_call(
        "sendMessage", lambda c: str(c.params["text"]).startswith("❓"), since=since
    )
    assert question.params["reply_markup"]


async def test_a_private_daily_brings_the_due_review_when_there_is_one(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """With /daily in private, the day's question is the learner's most overdue card."""
    clock.set(datetime(2026, 12, 2, 9, 0, tzinfo=UTC))
    question_id = await _miss_in_group(fake, bot, clock)
    await _private(fake, "/daily 10:30")
    clock.set(datetime(2026, 12, 3, 10, 30, tzinfo=UTC))
    await fan_out(bot, fake)
    pushed = [
        m
        for m in fake.bot_messages(ALICE.id)
        if m.callback_data and m.callback_data[0].startswith("a:")
    ]
    assert len(pushed) == 1
    ask = await bot.store.get_ask(ask_id_of(pushed[0]))
    assert ask is not None
    assert ask.question_id == question_id


ONE_QUESTION_DECK = """
id: one
title: One question
source: a test
questions:
  - id: only
    topic: t
    text: Which letter comes first?
    answer: A
    wrong: [B, C, D]
    explanation: A is the first letter.
    source: https://example.org/alphabet
"""


async def test_a_question_missed_eight_times_is_marked_as_a_leech_in_me(
    fake: BotApiServer, settings: Settings, clock: FakeClock, tmp_path: Path
) -> None:
    """Eight misses of one question: private /me lists it under Leeches; seven do not."""
    content = tmp_path / "decks"
    content.mkdir()
    (content / "one.yaml").write_text(ONE_QUESTION_DECK, encoding="utf-8")
    one_deck = settings.model_copy(update={"content_dir": content, "default_deck": "one"})
    async with running_bot(one_deck, clock=clock, poll_timeout=1, rng=Random(1)) as bot:
        await wait_for_polling(fake)
        for miss in range(1, 9):
            question = await group_quiz(fake)
            _, wrong, _ = await right_and_wrong(bot, question)
            await press_all(fake, question, [(ALICE, wrong)])
            await close_open_questions(fake, bot, clock)
            me = await _private(fake, "/me")
            assert ("Leeches" in me) is (miss == 8)
        assert "Which letter comes first?" in me
        assert "missed 8×" in me


async def test_a_card_missed_in_the_session_comes_back_once_at_its_end(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """Two due cards, the first missed again: asked first, second, then the first once more."""
    first = await _miss_in_group(fake, bot, clock)
    second = first
    while second == first:  # the group's next question is another one of the deck
        second = await _miss_in_group(fake, bot, clock)
    clock.advance(days=1)
    since = len(fake.calls)
    fake.send_message(alice_private(), ALICE, "/review")
    asked: list[str] = []
    for number, right in enumerate((False, True, True), start=1):
        call = await fake.wait_for_call(
            "sendMessage",
            lambda c: str(c.params["text"]).startswith("❓"),
            since=since,
            count=number,
        )
        posted = fake.message(ALICE.id, call.result["message_id"])
        ask = await bot.store.get_ask(ask_id_of(posted))
        assert ask is not None
        asked.append(ask.question_id)
        pick = ask.right_position if right else (ask.right_position + 1) % 4
        fake.press_button(alice_private(), ALICE, posted.message_id, posted.callback_data[pick])
        explained = await fake.wait_for_call(
            "sendMessage", lambda c: "💡" in str(c.params["text"]), since=since, count=number
        )
        if number < 3:
            reply = fake.message(ALICE.id, explained.result["message_id"])
            fake.press_button(alice_private(), ALICE, reply.message_id, reply.button("Next"))
    assert asked == [first, second, first]
    assert "<b>Review over</b>: 2 of 3 right" in str(explained.params["text"])
