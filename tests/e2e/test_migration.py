"""A group becoming a supergroup, whatever order Telegram's updates arrive in."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.app import RunningBot
from bot.playground.botapi import BotApiServer, FakeChat
from tests.e2e.helpers.faults import settle
from tests.e2e.helpers.group import MEMBERS
from tests.fakes.clock import FakeClock

OLD = FakeChat.group(-4343, "Study group")
NEW = FakeChat.supergroup(-1004343000000, "Study group")
ADMIN = MEMBERS[0]


async def _history_in_the_old_group(fake: BotApiServer, bot: RunningBot, clock: FakeClock) -> None:
    fake.set_admins(OLD.id, [ADMIN.id])
    fake.send_message(OLD, ADMIN, "/daily 10:00 UTC")
    fake.send_message(OLD, ADMIN, "/quiz 3")
    # The two commands are handled concurrently: wait for the question itself, not for a
    # quiet moment (which a slow handler may leave before it asks).
    await fake.wait_until(
        lambda: any(m.callback_data for m in fake.bot_messages(OLD.id)), 5.0, what="the question"
    )
    await bot.sender.idle()
    await fake.idle()
    (question,) = [m for m in fake.bot_messages(OLD.id) if m.callback_data]
    query = fake.press_button(OLD, ADMIN, question.message_id, question.callback_data[0])
    await fake.callback_answer(query)


def _migration_messages(fake: BotApiServer) -> None:
    fake.migrate_chat(OLD.id, NEW.id, notify=True, by=ADMIN)


def _bot_joins_the_new_chat(fake: BotApiServer) -> None:
    fake.add_member_update(NEW, ADMIN)


def _member_writes_in_the_new_chat(fake: BotApiServer) -> None:
    fake.send_message(NEW, MEMBERS[1], "/leaderboard")


ORDERS = {
    "migration first": (_migration_messages,),
    "join first": (_bot_joins_the_new_chat, _migration_messages),
    "a member first": (_member_writes_in_the_new_chat, _migration_messages),
    "join and a member first": (
        _bot_joins_the_new_chat,
        _member_writes_in_the_new_chat,
        _migration_messages,
    ),
}


@pytest.mark.parametrize("order", list(ORDERS))
async def test_everything_moves_to_the_supergroup_in_any_order(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock, order: str
) -> None:
    """Scores, the running round and the daily schedule all carry on at the new id."""
    await _history_in_the_old_group(fake, bot, clock)
    for event in ORDERS[order]:
        event(fake)
        await fake.idle()
    await bot.sender.idle()
    assert await bot.store.chat(OLD.id) is None
    assert await bot.store.running_round(NEW.id) is not None
    schedule = await bot.store.schedule(NEW.id)
    assert schedule is not None
    assert schedule.enabled
    stats = await bot.store.user_stats(NEW.id, ADMIN.id)
    assert stats.answered == 1
    for _ in range(4):  # the round's questions close and it moves on, in the new chat
        await settle(fake, bot, clock, 61)
    summaries = [m for m in fake.bot_messages(NEW.id) if (m.text or "").startswith("🏁")]
    assert len(summaries) == 1
    clock.set(datetime(2026, 12, 2, 10, 0, tzinfo=UTC))
    await bot.ticker.tick()
    await bot.sender.feed_until_quiet()
    await fake.idle()
    pushed = [m for m in fake.bot_messages(NEW.id) if m.callback_data and "⏳" in (m.text or "")]
    assert pushed, "the daily question went to the supergroup"
