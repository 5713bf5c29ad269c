"""One polling bot on PostgreSQL: the same behaviour as on SQLite where concurrency differs.

(The whole end-to-end suite runs on PostgreSQL with QUIZBOT_TEST_E2E_POSTGRES=1.)
"""

from __future__ import annotations

import pytest

from bot.app import RunningBot
from bot.playground.botapi import BotApiServer
from tests.e2e.conftest import ALICE, alice_private
from tests.e2e.helpers.group import GROUP, MEMBERS, TOPIC


@pytest.fixture
def database(pg_migrated_url: str) -> str:
    return pg_migrated_url


async def test_a_crowd_sending_quiz_at_once_gets_one_question_on_postgresql(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """Twenty /quiz handled concurrently in separate PostgreSQL transactions: one question."""
    for member in MEMBERS[:20]:
        fake.send_message(GROUP, member, "/quiz", thread_id=TOPIC)
    await fake.wait_for_call("sendMessage", lambda c: bool(c.params.get("reply_markup")))
    await fake.idle()
    await bot.sender.idle()
    await fake.idle()
    questions = [m for m in fake.bot_messages(GROUP.id) if m.callback_data]
    assert len(questions) == 1


async def test_a_private_quiz_is_answered_and_explained_on_postgresql(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """/quiz, a press and its explanation, with the answer stored in PostgreSQL."""
    fake.send_message(alice_private(), ALICE, "/quiz")
    call = await fake.wait_for_call("sendMessage")
    question = fake.message(ALICE.id, call.result["message_id"])
    since = len(fake.calls)
    fake.press_button(alice_private(), ALICE, question.message_id, question.callback_data[0])
    explanation = await fake.wait_for_call("sendMessage", since=since)
    assert "💡" in explanation.params["text"] or "Correct" in explanation.params["text"]
    stats = await bot.store.user_stats(ALICE.id, ALICE.id)
    assert stats.answered == 1


async def test_next_pressed_twice_at_once_asks_one_question_on_postgresql(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """Two presses of one Next ▶ handled concurrently on PostgreSQL ask one question."""
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
    presses = [fake.press_button(alice_private(), ALICE, reply.message_id, data) for _ in "ab"]
    for press in presses:
        await fake.callback_answer(press)
    await fake.idle()
    await bot.sender.idle()
    await fake.idle()
    assert len(fake.calls_to("sendMessage")) == 3
