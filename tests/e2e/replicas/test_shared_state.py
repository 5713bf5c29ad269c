"""What replicas must agree on, kept in the database: the one pointer a crowd gets to an open
question, a member's command allowance, and which updates were acted on already."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import aiohttp
import pytest

from bot.playground.botapi import BotApiServer, FakeChat
from tests.e2e.conftest import ALICE, alice_private
from tests.e2e.helpers.group import MEMBERS
from tests.e2e.replicas.helpers import SECRET, Replica, beaten, questions_in, replica, settle
from tests.fakes.clock import FakeClock

GROUP = FakeChat.supergroup(-1009900000101, "Shared state group")
SLOW_DOWN = "⏳ Easy"


def pointers(fake: BotApiServer, chat_id: int) -> list[str]:
    return [m.text or "" for m in fake.bot_messages(chat_id) if "still open" in (m.text or "")]


def replies_to_member(fake: BotApiServer, chat_id: int, since: int) -> list[str]:
    return [
        str(c.params.get("text", ""))
        for c in fake.calls_to("sendMessage")[since:]
        if c.params.get("chat_id") == chat_id
    ]


@pytest.fixture(params=["one", "two"])
async def replicas(
    request: pytest.FixtureRequest, fake: BotApiServer, pg_migrated_url: str, clock: FakeClock
) -> AsyncIterator[list[Replica]]:
    """One replica, or two on one database behind the fake's round-robin delivery."""
    fake.webhook.retry_delay = 0.01
    if request.param == "one":
        async with replica(fake, pg_migrated_url, clock, 1) as only:
            await beaten([only])
            yield [only]
        return
    async with (
        replica(fake, pg_migrated_url, clock, 1) as first,
        replica(fake, pg_migrated_url, clock, 2) as second,
    ):
        fake.webhook.replicas = [first.url, second.url]
        await beaten([first, second])
        yield [first, second]


async def test_twenty_members_asking_at_once_get_one_question_and_one_pointer(
    fake: BotApiServer, replicas: list[Replica]
) -> None:
    """Twenty /quiz at once (over two replicas): one question, and one "still open" pointer
    however many of them found it open."""
    for member in MEMBERS[:20]:
        fake.send_message(GROUP, member, "/quiz")
    await fake.wait_until(lambda: fake.webhook.pending == 0, 15, what="every update delivered")
    await settle(fake, replicas)
    assert len(questions_in(fake, GROUP.id)) == 1
    assert len(pointers(fake, GROUP.id)) == 1


async def test_a_members_allowance_is_the_same_with_one_replica_or_two(
    fake: BotApiServer, replicas: list[Replica]
) -> None:
    """Nine commands from one member in a minute: six answered, one "slow down", two ignored,
    whichever replica each lands on."""
    member = MEMBERS[3]
    since = len(fake.calls_to("sendMessage"))
    for _ in range(9):
        fake.send_message(GROUP, member, "/me")
        await fake.wait_until(lambda: fake.webhook.pending == 0, 10, what="the command handled")
    await settle(fake, replicas)
    texts = replies_to_member(fake, GROUP.id, since)
    assert len(texts) == 7
    assert [t for t in texts if t.startswith(SLOW_DOWN)] == [texts[-1]]


async def test_an_update_delivered_to_both_replicas_at_once_is_acted_on_once(
    fake: BotApiServer, replicas: list[Replica]
) -> None:
    """The same /quiz posted to every replica at the same moment (a retry racing the first
    delivery): each answers 2xx, the learner gets one question."""
    fake.send_message(alice_private(), ALICE, "/help")  # the chat and user are known to the fake
    await fake.wait_until(lambda: fake.webhook.pending == 0, 10, what="the /help")
    update = {
        "update_id": 987654,
        "message": {
            "message_id": 4242,
            "date": 0,
            "chat": alice_private().to_dict(),
            "from": ALICE.to_dict(),
            "text": "/quiz",
            "entities": [{"type": "bot_command", "offset": 0, "length": 5}],
        },
    }
    body = json.dumps(update).encode()
    headers = {"Content-Type": "application/json", "X-Telegram-Bot-Api-Secret-Token": SECRET}
    async with aiohttp.ClientSession() as session:

        async def post(url: str) -> int:
            async with session.post(url, data=body, headers=headers) as answer:
                return answer.status

        statuses = await asyncio.gather(*(post(r.url) for r in replicas for _ in range(2)))
    assert all(200 <= s < 300 for s in statuses)
    await settle(fake, replicas)
    assert len(questions_in(fake, ALICE.id)) == 1


async def test_an_answer_lost_on_its_way_back_is_redelivered_to_the_other_replica_harmlessly(
    fake: BotApiServer, replicas: list[Replica]
) -> None:
    """A /quiz whose 200 was lost comes again (round-robin: to the other replica); one
    question."""
    fake.webhook.lose_answers = 1
    fake.send_message(alice_private(), ALICE, "/quiz")
    await fake.wait_until(lambda: fake.webhook.pending == 0, 10, what="the redelivery")
    await settle(fake, replicas)
    assert len(questions_in(fake, ALICE.id)) == 1
