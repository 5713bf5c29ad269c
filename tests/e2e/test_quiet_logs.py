"""Expected Telegram faults are one log line each at WARNING or below, never a traceback: a
press whose answer fails or comes too late, an owed message refused with a 5xx (an HTML page
included), a long poll that fails. A traceback means a bug."""

from __future__ import annotations

import logging

import pytest

from bot.app import RunningBot
from bot.playground.botapi import ApiError, BotApiServer, FakeChat
from bot.playground.botapi.faults import NGINX_BAD_GATEWAY
from tests.e2e.conftest import ALICE, alice_private
from tests.e2e.helpers.faults import TRANSIENT, settle
from tests.e2e.helpers.group import MEMBERS
from tests.fakes.clock import FakeClock

GROUP = FakeChat.supergroup(-1009500000001, "Quiet group")
TOO_OLD = ApiError(
    400, "Bad Request: query is too old and response timeout expired or query ID is invalid"
)


def assert_quiet(caplog: pytest.LogCaptureFixture) -> None:
    """No record carries a traceback, and none is above WARNING."""
    noisy = [r for r in caplog.records if r.exc_info or r.levelno > logging.WARNING]
    assert noisy == [], [f"{r.name}: {r.getMessage()}" for r in noisy]


async def _question(fake: BotApiServer, bot: RunningBot, chat: FakeChat) -> tuple[int, str]:
    fake.send_message(chat, MEMBERS[0], "/quiz")
    await fake.wait_until(
        lambda: any(m.callback_data for m in fake.bot_messages(chat.id)), 10, what="a question"
    )
    await bot.sender.idle()
    message = next(m for m in fake.bot_messages(chat.id) if m.callback_data)
    return message.message_id, message.callback_data[0]


@pytest.mark.parametrize("fault", [*TRANSIENT, "too-old"])
async def test_a_press_whose_answer_fails_is_one_quiet_line(
    fake: BotApiServer, bot: RunningBot, caplog: pytest.LogCaptureFixture, fault: str
) -> None:
    """The toast of a group press fails (every transient fault, or Telegram says the press is
    too old): the answer is recorded, the log has no traceback."""
    caplog.set_level(logging.DEBUG)
    message_id, data = await _question(fake, bot, GROUP)
    failure = TOO_OLD if fault == "too-old" else TRANSIENT[fault]
    fake.inject("answerCallbackQuery", failure, times=None)
    fake.press_button(GROUP, MEMBERS[1], message_id, data)
    await fake.wait_until(
        lambda: len(fake.calls_to("answerCallbackQuery")) >= 1, 10, what="the press answered"
    )
    await fake.idle()
    await bot.sender.idle()
    assert_quiet(caplog)
    ask_id = int(data.split(":")[1])
    assert await bot.store.get_answer(ask_id, MEMBERS[1].id) is not None


async def test_an_html_502_on_an_owed_message_is_retried_quietly(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    """Telegram's front end answers a question's post with an HTML 502 page: a transient
    fault (not "invalid JSON" with a traceback); the question is posted on the retry."""
    caplog.set_level(logging.DEBUG)
    fake.inject("sendMessage", NGINX_BAD_GATEWAY)
    fake.send_message(alice_private(), ALICE, "/quiz")
    await fake.wait_until(lambda: bool(fake.calls_to("sendMessage")), 10, what="the first try")
    for _ in range(3):  # the retry after its back-off
        await settle(fake, bot, clock, 2)
    assert len([m for m in fake.bot_messages(ALICE.id) if m.callback_data]) == 1
    assert_quiet(caplog)
    assert not [r for r in caplog.records if "invalid JSON" in r.getMessage()]


@pytest.mark.parametrize("fault", ["502", "nginx-502", "dropped"])
async def test_a_failing_long_poll_is_one_quiet_line_and_polling_goes_on(
    fake: BotApiServer, bot: RunningBot, caplog: pytest.LogCaptureFixture, fault: str
) -> None:
    """getUpdates fails (a 5xx, an HTML page, a dropped connection): one warning, and the next
    poll takes the updates."""
    caplog.set_level(logging.DEBUG)
    fake.inject("getUpdates", TRANSIENT[fault], times=2)
    fake.send_message(alice_private(), ALICE, "/help")
    await fake.wait_until(lambda: bool(fake.calls_to("sendMessage")), 15, what="the /help reply")
    assert_quiet(caplog)
