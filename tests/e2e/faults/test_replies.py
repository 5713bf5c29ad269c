"""Every reply a user waits for survives a fault: a command's reply that Telegram fails (each
transient fault kind) comes once, in the end; an admin check that fails is retried, and if it
still fails the admin is told to try again and nothing is changed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import time

import pytest

from bot.app import RunningBot
from bot.playground.botapi import BotApiServer, FakeChat, FakeUser, JsonDict
from tests.e2e.conftest import ALICE, alice_private
from tests.e2e.helpers.faults import TRANSIENT, settle
from tests.e2e.helpers.group import MEMBERS
from tests.fakes.clock import FakeClock

GROUP = FakeChat.supergroup(-1009400000001, "Faulty group")
ADMIN, MEMBER = MEMBERS[0], MEMBERS[1]
TRY_AGAIN = "⚠️ Telegram did not answer when I checked"


@dataclass(frozen=True)
class Command:
    """A command and how its reply starts."""

    chat: FakeChat
    user: FakeUser
    text: str
    reply: str


COMMANDS = (
    Command(alice_private(), ALICE, "/help", "👋 <b>quizbot"),
    Command(alice_private(), ALICE, "/me", "You haven't answered"),
    Command(alice_private(), ALICE, "/topics", "📚"),
    Command(alice_private(), ALICE, "/daily", "The daily question is off"),
    Command(alice_private(), ALICE, "/deck", "📚"),
    Command(alice_private(), ALICE, "/timezone", "This chat's time zone"),
    Command(alice_private(), ALICE, "/forgetme", "🗑"),
    Command(alice_private(), ALICE, "hello", "I answer commands"),
    Command(GROUP, MEMBER, "/leaderboard", "🏆"),
    Command(GROUP, MEMBER, "/me", ""),
    Command(GROUP, MEMBER, "/review", ""),
    Command(GROUP, MEMBER, "/exam", ""),
    Command(GROUP, ADMIN, "/daily 20:15 UTC", "✅ Daily question"),
)


def _to(chat: FakeChat, starts: str) -> Callable[[JsonDict], bool]:
    def matches(params: JsonDict) -> bool:
        return params.get("chat_id") == chat.id and str(params.get("text", "")).startswith(starts)

    return matches


def _replies(fake: BotApiServer, chat: FakeChat, starts: str, since: int) -> list[str]:
    return [
        str(c.params.get("text"))
        for c in fake.calls_to("sendMessage")[since:]
        if c.ok and _to(chat, starts)(c.params)
    ]


@pytest.mark.parametrize("fault", list(TRANSIENT))
async def test_each_commands_reply_comes_once_after_a_transient_fault(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock, fault: str
) -> None:
    """For every command: its reply's first send fails with the fault; the reply is sent
    again after its back-off and arrives exactly once."""
    fake.set_admins(GROUP.id, [ADMIN.id])
    for command in COMMANDS:
        since = len(fake.calls_to("sendMessage"))
        injected = fake.inject("sendMessage", TRANSIENT[fault], when=_to(command.chat, ""))
        fake.send_message(command.chat, command.user, command.text)
        for _ in range(6):
            await settle(fake, bot, clock, 31)
            if _replies(fake, command.chat, command.reply, since):
                break
        assert injected.hits, command.text
        assert len(_replies(fake, command.chat, command.reply, since)) == 1, command.text


@pytest.mark.parametrize("fault", list(TRANSIENT))
async def test_a_failed_admin_check_is_retried_and_the_setting_applied(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock, fault: str
) -> None:
    """`/daily 20:15` by an admin while getChatMember fails once: checked again, the schedule
    is set and confirmed."""
    fake.set_admins(GROUP.id, [ADMIN.id])
    injected = fake.inject("getChatMember", TRANSIENT[fault])
    since = len(fake.calls_to("sendMessage"))
    fake.send_message(GROUP, ADMIN, "/daily 20:15 UTC")
    confirmed = "✅ Daily question"
    await fake.wait_until(
        lambda: bool(_replies(fake, GROUP, confirmed, since)), 10, what="the confirmation"
    )
    assert injected.hits
    status = await bot.services.daily.status(GROUP.id)
    assert status.on
    assert status.schedule is not None
    assert status.schedule.local_time == time(20, 15).strftime("%H:%M")


@pytest.mark.parametrize("fault", list(TRANSIENT))
async def test_an_admin_check_that_keeps_failing_says_try_again_and_changes_nothing(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock, fault: str
) -> None:
    """getChatMember failing on every try: the admin is told Telegram did not answer, and no
    schedule is set."""
    fake.set_admins(GROUP.id, [ADMIN.id])
    fake.inject("getChatMember", TRANSIENT[fault], times=None)
    since = len(fake.calls_to("sendMessage"))
    fake.send_message(GROUP, ADMIN, "/daily 20:15 UTC")
    await fake.wait_until(
        lambda: bool(_replies(fake, GROUP, TRY_AGAIN, since)), 15, what="the try-again reply"
    )
    assert not (await bot.services.daily.status(GROUP.id)).on
    await settle(fake, bot, clock, 31)
    assert len(_replies(fake, GROUP, TRY_AGAIN, since)) == 1
