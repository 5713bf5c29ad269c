"""Stopping the bot while a group's replies wait for its send window: nothing is sent twice,
nothing is lost."""

from __future__ import annotations

from collections import Counter

from bot.app import running_bot
from bot.config import Settings
from bot.playground.botapi import BotApiServer, FakeChat, RateLimits
from tests.e2e.conftest import wait_for_polling
from tests.e2e.helpers.group import MEMBERS
from tests.fakes.clock import FakeClock

GROUP = FakeChat.supergroup(-1005600000, "Busy group")
SCALE = 10  # the group's 20 messages a minute become 20 per 6 s


def _replied_to(fake: BotApiServer) -> Counter[int]:
    """How many answered replies each of the group's messages got."""
    return Counter(
        int(c.params["reply_parameters"]["message_id"])
        for c in fake.calls_to("sendMessage")
        if c.ok and c.params.get("chat_id") == GROUP.id and "reply_parameters" in c.params
    )


async def test_replies_waiting_for_the_window_at_stop_are_sent_once_after_the_restart(
    fake: BotApiServer, settings: Settings, clock: FakeClock
) -> None:
    """25 commands in a group whose window takes 20: at a stop the 5 waiting replies are not
    sent; after the restart each of the 25 commands has exactly one reply."""
    fake.limits = RateLimits(factor=SCALE)
    paced = settings.model_copy(update={"rate_limit_scale": SCALE})
    commands = []
    async with running_bot(paced, clock=clock, poll_timeout=1):
        await wait_for_polling(fake)
        for member in MEMBERS[:5]:
            for _ in range(5):
                commands.append(fake.send_message(GROUP, member, "/me")["message_id"])
        await fake.wait_until(lambda: sum(_replied_to(fake).values()) >= 20, what="20 replies")
    assert sum(_replied_to(fake).values()) == 20
    async with running_bot(paced, clock=clock, poll_timeout=1):
        await wait_for_polling(fake)
        await fake.wait_until(lambda: sum(_replied_to(fake).values()) >= 25, 15, what="the rest")
        await fake.idle()
    # (The restarted limiter cannot know the window its predecessor filled: a 429 there is
    # waited out and retried, and still sends each reply once.)
    assert _replied_to(fake) == Counter(commands)


async def test_a_send_on_the_wire_at_stop_is_finished_and_not_sent_again(
    fake: BotApiServer, settings: Settings, clock: FakeClock
) -> None:
    """A question whose request is on the wire when the bot stops (Telegram answering in 3 s)
    is waited for and recorded: the restart does not send it a second time."""
    learner = FakeChat.private(MEMBERS[0])
    async with running_bot(settings, clock=clock, poll_timeout=1):
        await wait_for_polling(fake)
        fake.latency = 3.0
        fake.send_message(learner, MEMBERS[0], "/quiz")
        await fake.wait_until(
            lambda: any(
                c.params.get("chat_id") == learner.id for c in fake.calls_to("sendMessage")
            ),
            what="the question on the wire",
        )
    fake.latency = 0.0
    async with running_bot(settings, clock=clock, poll_timeout=1):
        await wait_for_polling(fake)
        await fake.idle(settle=0.3)
    sent = [c for c in fake.calls_to("sendMessage") if c.params.get("chat_id") == learner.id]
    assert len(sent) == 1
    assert sent[0].ok
