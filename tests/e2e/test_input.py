"""Odd input from users: every command answers clearly, nothing breaks, edits run nothing."""

from __future__ import annotations

import logging
import time

import pytest

from bot.app import RunningBot
from bot.playground.botapi import QUERY_TOO_OLD, ApiError, BotApiServer
from tests.e2e.conftest import ALICE, alice_private
from tests.e2e.helpers.group import GROUP, MEMBERS, TOPIC, group_quiz
from tests.fakes.clock import FakeClock

ODD = [
    "²",
    "٣",
    "５",
    "-1",
    "+5",
    "0",
    "99999999999999999999999",
    "<b>bold</b>",
    "&amp; &",
    "</i>",
    "\u202e\u200b",
    "Europe/Berlin x",
    "../../etc/passwd",
    "A" * 5000,
    "🙂" * 300,
    "off off",
    "25:00",
    "9:60",
]
COMMANDS = [
    "/quiz",
    "/leaderboard",
    "/timezone",
    "/daily",
    "/deck",
    "/me",
    "/stop",
    "/help",
    "/topics",
]


@pytest.mark.parametrize("command", COMMANDS)
async def test_every_command_answers_odd_arguments_with_a_reply_telegram_accepts(
    fake: BotApiServer, bot: RunningBot, command: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Digits of other scripts, HTML, huge text: each gets a reply, and no handler fails."""
    caplog.set_level(logging.ERROR)
    chat = alice_private()
    for argument in ODD:
        since = len(fake.calls)
        fake.send_message(chat, ALICE, f"{command} {argument}")
        await fake.wait_for_call("sendMessage", since=since)
        await fake.idle()
        replies = [c for c in fake.calls[since:] if c.method in ("sendMessage", "editMessageText")]
        assert all(c.status == 200 for c in replies), [c.description for c in replies]
    assert not fake.internal_errors
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def _edit(fake: BotApiServer, message: dict[str, object], text: str) -> None:
    edited = dict(message) | {"text": text, "edit_date": int(time.time())}
    fake.push_update({"edited_message": edited})


async def test_an_edited_command_runs_nothing(fake: BotApiServer, bot: RunningBot) -> None:
    """Editing `/quiz` (or editing a message into `/quiz 5`) asks no question."""
    sent = fake.send_message(alice_private(), ALICE, "/quiz")
    other = fake.send_message(alice_private(), ALICE, "hello")
    await fake.wait_for_call("sendMessage", count=2)
    await fake.idle()
    since = len(fake.calls)
    _edit(fake, sent, "/quiz 5")
    _edit(fake, other, "/quiz")
    await fake.idle()
    assert [c.method for c in fake.calls[since:] if c.method != "getUpdates"] == []


async def test_twenty_quiz_commands_in_a_group_post_one_question_and_one_pointer(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """A crowd sending /quiz at once gets one question and one reply pointing at it."""
    question = await group_quiz(fake, MEMBERS[0])
    since = len(fake.calls)
    for member in MEMBERS[1:20]:
        fake.send_message(GROUP, member, "/quiz", thread_id=TOPIC)
    # The pointer first (under load the updates can take longer than idle's quiet period),
    # then quiet: nothing else may follow it.
    await fake.wait_for_call("sendMessage", since=since, timeout=10)
    await fake.idle(settle=0.3)
    sends = [c for c in fake.calls[since:] if c.method == "sendMessage"]
    assert len(sends) == 1
    assert "still open" in sends[0].params["text"]
    assert sends[0].params["reply_parameters"]["message_id"] == question.message_id


async def test_a_member_repeating_commands_is_told_once_then_ignored(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """Past a few commands a minute a member gets one 'easy' reply, then silence, then service."""
    since = len(fake.calls)
    for _ in range(10):
        fake.send_message(GROUP, MEMBERS[5], "/leaderboard", thread_id=TOPIC)
    await fake.idle()
    texts = [str(c.params["text"]) for c in fake.calls[since:] if c.method == "sendMessage"]
    assert len(texts) == 7
    assert sum(text.startswith("⏳ Easy") for text in texts) == 1
    clock.advance(seconds=61)
    since = len(fake.calls)
    fake.send_message(GROUP, MEMBERS[5], "/leaderboard", thread_id=TOPIC)
    await fake.idle()
    assert [c.method for c in fake.calls[since:] if c.method == "sendMessage"] == ["sendMessage"]


async def test_a_crowd_sending_quiz_at_the_same_moment_gets_one_question(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """Twenty simultaneous /quiz before any question exists: still one question."""
    for member in MEMBERS[:20]:
        fake.send_message(GROUP, member, "/quiz", thread_id=TOPIC)
    await fake.wait_for_call("sendMessage", lambda c: bool(c.params.get("reply_markup")))
    await fake.idle()
    await bot.sender.idle()
    await fake.idle()
    questions = [m for m in fake.bot_messages(GROUP.id) if m.callback_data]
    assert len(questions) == 1
    pointers = [m for m in fake.bot_messages(GROUP.id) if "still open" in (m.text or "")]
    assert len(pointers) <= 1


async def test_a_press_too_old_to_answer_still_counts_and_logs_no_error(
    fake: BotApiServer, bot: RunningBot, caplog: pytest.LogCaptureFixture
) -> None:
    """Telegram refusing the press's answer (query too old) leaves the answer scored."""
    caplog.set_level(logging.ERROR)
    fake.send_message(alice_private(), ALICE, "/quiz")
    call = await fake.wait_for_call("sendMessage")
    question = fake.message(ALICE.id, call.result["message_id"])
    fake.inject("answerCallbackQuery", ApiError(400, QUERY_TOO_OLD))
    fake.press_button(alice_private(), ALICE, question.message_id, question.callback_data[0])
    await fake.wait_for_call("sendMessage", count=2)
    await bot.sender.idle()
    stats = await bot.store.user_stats(ALICE.id, ALICE.id)
    assert stats.answered == 1
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("text", ["hello", "/nosuchcommand", "quiz please", "٣"])
async def test_anything_else_in_private_gets_a_hint(
    fake: BotApiServer, bot: RunningBot, text: str
) -> None:
    """Plain text or an unknown command in a private chat is answered, never met with silence."""
    since = len(fake.calls)
    fake.send_message(alice_private(), ALICE, text)
    call = await fake.wait_for_call("sendMessage", since=since)
    assert "/quiz" in call.params["text"]


async def test_plain_talk_in_a_group_is_left_alone(fake: BotApiServer, bot: RunningBot) -> None:
    """Members talking in a group get no reply from the bot."""
    since = len(fake.calls)
    fake.send_message(GROUP, MEMBERS[3], "hello everyone", thread_id=TOPIC)
    await fake.idle()
    assert not [c for c in fake.calls[since:] if c.method == "sendMessage"]
