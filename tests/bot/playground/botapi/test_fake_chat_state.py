"""Self-tests of the fake Bot API's chat state: kicks, blocks, migrations, flood limits,
commands, members and forum topics, driven through a real PTB ``Bot``."""

from __future__ import annotations

import datetime as dtm

import pytest
from telegram import Bot, ChatMemberAdministrator, ChatMemberMember
from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter

from bot.playground.botapi import BotApiServer, FakeChat, FakeUser, RateLimits

ALICE = FakeUser(1001, "Alice", username="alice")
BOB = FakeUser(1002, "Bob")
ALICE_CHAT = FakeChat.private(ALICE)
GROUP = FakeChat.group(-500, "Quiz night")


async def test_sends_after_kick_or_block_are_forbidden(fake: BotApiServer, bot: Bot) -> None:
    """kick_bot / block_bot make later sends fail with Telegram's 403 texts."""
    fake.kick_bot(GROUP.id)
    fake.block_bot(ALICE_CHAT.id)
    with pytest.raises(Forbidden, match="bot was kicked from the group chat"):
        await bot.send_message(GROUP.id, "hi")
    with pytest.raises(Forbidden, match="bot was blocked by the user"):
        await bot.send_message(ALICE_CHAT.id, "hi")
    fake.restore_bot(ALICE_CHAT.id)
    assert (await bot.send_message(ALICE_CHAT.id, "back")).text == "back"


async def test_my_chat_member_update_parses_and_blocks(fake: BotApiServer, bot: Bot) -> None:
    """member_update for the bot yields my_chat_member and applies the block."""
    fake.member_update(ALICE_CHAT, ALICE, old_status="member", new_status="kicked")
    fake.add_member_update(GROUP, BOB)
    updates = await bot.get_updates()
    kicked, added = (u.my_chat_member for u in updates)
    assert kicked is not None
    assert kicked.new_chat_member.status == "kicked"
    assert added is not None
    assert added.new_chat_member.user.id == fake.bot_user.id
    with pytest.raises(Forbidden):
        await bot.send_message(ALICE_CHAT.id, "hi")


async def test_send_to_migrated_group_raises_chat_migrated(fake: BotApiServer, bot: Bot) -> None:
    """migrate_chat makes sends answer 400 with parameters.migrate_to_chat_id."""
    fake.migrate_chat(GROUP.id, -1001234567890, notify=True)
    with pytest.raises(ChatMigrated) as info:
        await bot.send_message(GROUP.id, "hi")
    assert info.value.new_chat_id == -1001234567890
    updates = await bot.get_updates()
    assert next(u.message.migrate_to_chat_id for u in updates if u.message) == -1001234567890


async def test_rate_limit_rejects_with_retry_after(
    fake: BotApiServer, bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With limits on, a quick burst to one private chat ends in 429 + retry_after."""
    monkeypatch.setenv("PTB_TIMEDELTA", "1")  # else RetryAfter() itself warns (PTB 22.2+)
    now = [100.0]
    fake.limits = RateLimits(clock=lambda: now[0])

    async def burst() -> None:  # however large a burst RateLimits allows by default
        for n in range(10):
            await bot.send_message(ALICE_CHAT.id, str(n))

    with pytest.raises(RetryAfter) as info:
        await burst()
    retry_after = info.value.retry_after
    assert isinstance(retry_after, dtm.timedelta)
    assert retry_after >= dtm.timedelta(seconds=1)
    assert fake.rejected_429 == 1
    assert fake.calls_to("sendMessage")[-1].status == 429
    await bot.answer_callback_query(fake.press_button(ALICE_CHAT, ALICE, 1, "x"))  # not limited
    now[0] += retry_after.total_seconds()
    assert (await bot.send_message(ALICE_CHAT.id, "later")).text == "later"


async def test_group_and_overall_limits_scale_with_factor(
    fake: BotApiServer, bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """factor=0.1 stretches the windows tenfold: 3 per 10 s overall, 2 per 600 s per group."""
    monkeypatch.setenv("PTB_TIMEDELTA", "1")
    now = [0.0]
    fake.limits = RateLimits(
        clock=lambda: now[0], factor=0.1, overall_per_second=3, group_per_minute=2
    )
    for chat_id in (1, 2, 3):
        await bot.send_message(chat_id, "x")
    with pytest.raises(RetryAfter) as overall:
        await bot.send_message(4, "x")
    assert overall.value.retry_after == dtm.timedelta(seconds=10)
    now[0] += 10.0
    await bot.send_message(GROUP.id, "g1")
    await bot.send_message(GROUP.id, "g2")
    with pytest.raises(RetryAfter) as group:
        await bot.send_message(GROUP.id, "g3")
    assert group.value.retry_after == dtm.timedelta(seconds=600)
    assert fake.rejected_429 == 2


async def test_commands_are_stored_and_returned(fake: BotApiServer, bot: Bot) -> None:
    """setMyCommands is stored per scope; getMyCommands returns it."""
    assert await bot.set_my_commands([("start", "Start a quiz"), ("top", "Leaderboard")])
    assert [c["command"] for c in fake.commands] == ["start", "top"]
    assert [c.command for c in await bot.get_my_commands()] == ["start", "top"]
    with pytest.raises(BadRequest, match=r"(?i)BOT_COMMAND_INVALID"):
        await bot.set_my_commands([("Start", "uppercase is invalid")])


async def test_chat_members_follow_configured_admins(fake: BotApiServer, bot: Bot) -> None:
    """set_admins drives getChatMember / getChatAdministrators; getChat parses."""
    fake.send_message(GROUP, BOB, "hi")
    fake.set_admins(GROUP.id, [ALICE.id], owner_id=BOB.id)
    assert isinstance(await bot.get_chat_member(GROUP.id, ALICE.id), ChatMemberAdministrator)
    assert isinstance(await bot.get_chat_member(GROUP.id, 4242), ChatMemberMember)
    admins = await bot.get_chat_administrators(GROUP.id)
    assert [(a.user.id, a.status) for a in admins] == [
        (BOB.id, "creator"),
        (ALICE.id, "administrator"),
    ]
    chat = await bot.get_chat(GROUP.id)
    assert (chat.id, chat.type, chat.title) == (GROUP.id, "group", "Quiz night")


async def test_forum_thread_messages_are_topic_messages(fake: BotApiServer, bot: Bot) -> None:
    """message_thread_id is echoed with is_topic_message, for users and the bot."""
    forum = FakeChat.supergroup(-1009, "Forum", forum=True)
    fake.send_message(forum, ALICE, "in topic", thread_id=5)
    sent = await bot.send_message(forum.id, "reply", message_thread_id=5)
    assert (sent.message_thread_id, sent.is_topic_message) == (5, True)
    (update,) = await bot.get_updates()
    assert update.message is not None
    assert update.message.is_topic_message
