"""Rounds: /quiz N in private chats and groups, the summary, /stop, one round at a time."""

from __future__ import annotations

from bot.app import RunningBot
from bot.playground.botapi import BotApiServer
from tests.e2e.conftest import ALICE, alice_private
from tests.e2e.helpers.group import GROUP, MEMBERS, TOPIC, group_quiz, press_all, right_and_wrong
from tests.fakes.clock import FakeClock


async def _private(fake: BotApiServer, text: str) -> str:
    since = len(fake.calls)
    fake.send_message(alice_private(), ALICE, text)
    call = await fake.wait_for_call("sendMessage", since=since)
    return str(call.params["text"])


async def test_private_round_offers_next_and_ends_with_a_summary(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """Each explanation carries Next ▶ until the last answer, which ends with score and review."""
    fake.send_message(alice_private(), ALICE, "/quiz 3")
    for number in range(3):
        call = await fake.wait_for_call("sendMessage", count=2 * number + 1)
        question = fake.message(ALICE.id, call.result["message_id"])
        right, wrong = question.callback_data[0], question.callback_data[1]
        ask = await bot.store.get_ask(int(right.split(":")[1]))
        assert ask is not None
        pick = (
            question.callback_data[ask.right_position]
            if number != 1
            else (question.callback_data[(ask.right_position + 1) % 4])
        )
        del wrong
        clock.advance(seconds=20)
        query = fake.press_button(alice_private(), ALICE, question.message_id, pick)
        await fake.callback_answer(query)
        explanation = await fake.wait_for_call("sendMessage", count=2 * number + 2)
        reply = fake.message(ALICE.id, explanation.result["message_id"])
        if number < 2:
            assert [b["text"] for b in reply.buttons] == ["Next ▶", "⚑ Report"]
            assert "🏁" not in (reply.text or "")
            fake.press_button(alice_private(), ALICE, reply.message_id, reply.button("Next"))
        else:
            assert [b["text"] for b in reply.buttons] == ["⚑ Report"]
    # The last explanation carries the summary, so the round ends in one message, not two.
    text = explanation.params["text"]
    assert text.startswith("✅ <b>Correct!</b>")
    assert "\n\n🏁 <b>Round over</b>: 2 of 3 right in 1 min 0 s." in text
    assert "<b>To review</b>" in text
    assert text.count("• ") == 1
    await fake.idle()
    assert len(fake.calls_to("sendMessage")) == 6


async def test_next_pressed_twice_asks_one_question(fake: BotApiServer, bot: RunningBot) -> None:
    """A second press on the same Next ▶ does not ask another question."""
    fake.send_message(alice_private(), ALICE, "/quiz 5")
    call = await fake.wait_for_call("sendMessage")
    question = fake.message(ALICE.id, call.result["message_id"])
    query = fake.press_button(
        alice_private(), ALICE, question.message_id, question.callback_data[0]
    )
    await fake.callback_answer(query)
    reply_call = await fake.wait_for_call("sendMessage", count=2)
    reply = fake.message(ALICE.id, reply_call.result["message_id"])
    data = reply.button("Next")
    first = fake.press_button(alice_private(), ALICE, reply.message_id, data)
    await fake.callback_answer(first)
    second = fake.press_button(alice_private(), ALICE, reply.message_id, data)
    assert (
        await fake.callback_answer(second)
    ).text == "This round is over. Start a new one with /quiz 5."
    await fake.idle()
    assert len(fake.calls_to("sendMessage")) == 3


async def test_bad_round_sizes_get_usage_and_a_second_round_is_refused(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """/quiz 0, /quiz 21 and /quiz -1 get a usage line; a second /quiz N says one is running
    (/quiz x is a topic name: tests/e2e/test_topics.py)."""
    for text in ("/quiz 0", "/quiz 21", "/quiz -1", "/quiz 2 3"):
        assert (await _private(fake, text)).startswith("Usage: /quiz")
    await _private(fake, "/quiz 2")
    assert (await _private(fake, "/quiz 4")).startswith("A round is already running here.")
    await bot.sender.idle()
    await fake.idle()
    running = await bot.store.running_round(ALICE.id)
    assert running is not None
    assert running.size == 2
    assert len(await bot.store.round_asks(running.id)) == 1
    assert len([m for m in fake.bot_messages(ALICE.id) if m.callback_data]) == 1


async def test_stop_ends_a_private_round_with_its_summary(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """/stop ends the running round at once with a summary; with none running it says so."""
    await _private(fake, "/quiz 5")
    assert (await _private(fake, "/stop")).startswith("🏁 <b>Round stopped</b>: 0 of 1 right")
    assert (await _private(fake, "/stop")).startswith("No round is running here.")


async def test_group_round_posts_questions_back_to_back_and_a_leaderboard(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """In a group each round question closes before the next, then the round's board follows."""
    question = await group_quiz(fake, text="/quiz 2")
    right, wrong, _ = await right_and_wrong(bot, question)
    await press_all(fake, question, [(MEMBERS[0], right), (MEMBERS[1], wrong)])
    since = len(fake.calls)
    clock.advance(seconds=61)
    await bot.ticker.tick()
    call = await fake.wait_for_call("sendMessage", since=since)
    assert not fake.message(GROUP.id, question.message_id).callback_data
    second = fake.message(GROUP.id, call.result["message_id"])
    assert second.thread_id == TOPIC
    right2, _, _ = await right_and_wrong(bot, second)
    await press_all(fake, second, [(MEMBERS[1], right2), (MEMBERS[0], right2)])
    since = len(fake.calls)
    clock.advance(seconds=61)
    await bot.ticker.tick()
    summary = await fake.wait_for_call("sendMessage", since=since)
    text = summary.params["text"]
    assert text.startswith("🏁 <b>Round over</b> (2 questions)")
    assert "🥇 Member0 — <b>2</b> of 2 right" in text
    assert "🥈 Member1 — <b>1</b> of 2 right" in text


async def test_group_stop_is_for_the_starter_or_an_admin(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """Another member's /stop is refused; the starter's closes the question and ends the round."""
    question = await group_quiz(fake, MEMBERS[0], text="/quiz 3")
    refused = await group_quiz(fake, MEMBERS[1], text="/stop")
    assert refused.text == "Only the member who started this round or an admin can stop it."
    summary = await group_quiz(fake, MEMBERS[0], text="/stop")
    assert summary.text is not None
    assert summary.text.startswith("🏁 <b>Round stopped</b> (1 question)")
    assert not fake.message(GROUP.id, question.message_id).callback_data
