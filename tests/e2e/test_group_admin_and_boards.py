"""Leaderboards, /me in a group, /timezone for admins, migration and removal."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.app import RunningBot
from bot.core.model import ChatKind
from bot.playground.botapi import BotApiServer, FakeChat, FakeUser
from tests.e2e.helpers.group import (
    GROUP,
    MEMBERS,
    TOPIC,
    ask_id_of,
    close_open_questions,
    group_quiz,
    press_all,
    right_and_wrong,
    tick,
)
from tests.fakes.clock import FakeClock


async def _command(fake: BotApiServer, user: FakeUser, text: str, chat: FakeChat = GROUP) -> str:
    since = len(fake.calls)
    fake.send_message(chat, user, text, thread_id=TOPIC if chat is GROUP else None)
    call = await fake.wait_for_call("sendMessage", since=since)
    return str(call.params["text"])


async def _play(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock, results: dict[FakeUser, bool]
) -> None:
    question = await group_quiz(fake)
    right, wrong, _ = await right_and_wrong(bot, question)
    await press_all(fake, question, [(u, right if ok else wrong) for u, ok in results.items()])
    await close_open_questions(fake, bot, clock)


async def test_leaderboard_ranks_by_correct_then_accuracy_and_adds_own_line(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """Top 10 by correct, then accuracy; full ties share a rank; others see their own line."""
    evil = FakeUser(3999, "<b>Eve</b>")
    await _play(fake, bot, clock, {m: True for m in MEMBERS[:11]} | {evil: False})
    clock.advance(seconds=1)
    await _play(fake, bot, clock, {MEMBERS[0]: True, MEMBERS[1]: False, evil: False})
    text = await _command(fake, evil, "/leaderboard")
    lines = text.splitlines()
    assert lines[0].startswith("🏆 <b>Leaderboard, this week</b>")
    assert lines[2] == "🥇 Member0 — <b>2</b> (100% of 2)"
    assert lines[3].startswith("🥈 Member2 — <b>1</b> (100% of 1)")
    # Nine members tie on all three keys and share rank 2; Member1's 50% puts them 11th.
    assert sum(line.startswith("🥈 ") for line in lines) == 9
    assert "Member1 " not in text
    assert lines[-1] == "12. &lt;b&gt;Eve&lt;/b&gt; — <b>0</b> (0% of 2) ← you"
    assert "tg://user" not in text


async def test_leaderboard_periods_and_usage(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """Last week's answers count for the month and all time but not this week; bad args: usage."""
    clock.set(datetime(2026, 11, 27, 12, 0, tzinfo=UTC))  # a Friday
    await _play(fake, bot, clock, {MEMBERS[0]: True})
    clock.set(datetime(2026, 12, 2, 12, 0, tzinfo=UTC))  # the next Wednesday, a new month
    await _play(fake, bot, clock, {MEMBERS[1]: True})
    week = await _command(fake, MEMBERS[0], "/leaderboard")
    month = await _command(fake, MEMBERS[0], "/leaderboard month")
    overall = await _command(fake, MEMBERS[0], "/leaderboard all")
    assert "Member1" in week
    assert "Member0" not in week
    assert "Member0" not in month
    assert "Member0" in overall
    assert "Member1" in overall
    usage = await _command(fake, MEMBERS[0], "/leaderboard yesterday")
    assert usage.startswith("Usage: /leaderboard")


async def test_group_me_shows_points_accuracy_streaks_and_ranks(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """/me in a group: points, accuracy, current and best streak, rank this week and overall."""
    for ok in (True, True, False, True):
        await _play(fake, bot, clock, {MEMBERS[0]: ok, MEMBERS[1]: True})
        clock.advance(seconds=1)
    text = await _command(fake, MEMBERS[0], "/me")
    assert "Points: <b>3</b> of 4 answered (75%)" in text
    assert "Streak: <b>1</b> now, best 2" in text
    assert "Rank: #2 this week, #2 all time" in text


async def test_timezone_is_for_admins_and_validated(fake: BotApiServer, bot: RunningBot) -> None:
    """Non-admins are refused, unknown zones get an error, admins may set it."""
    fake.set_admins(GROUP.id, [MEMBERS[9].id])
    refused = await _command(fake, MEMBERS[0], "/timezone Europe/Berlin")
    assert refused == "Only this chat's admins can change its settings."
    unknown = await _command(fake, MEMBERS[9], "/timezone Mars/Olympus")
    assert "I don't know the time zone <code>Mars/Olympus</code>" in unknown
    done = await _command(fake, MEMBERS[9], "/timezone Europe/Berlin")
    assert done.startswith("🕓 Time zone set to Europe/Berlin")
    settings = await bot.store.chat(GROUP.id)
    assert settings is not None
    assert settings.timezone == "Europe/Berlin"
    shown = await _command(fake, MEMBERS[0], "/timezone")
    assert shown.startswith("This chat's time zone is Europe/Berlin.")


async def test_anonymous_admin_counts_as_admin(fake: BotApiServer, bot: RunningBot) -> None:
    """A message sent as the group itself (anonymous admin) may change settings."""
    since = len(fake.calls)
    message = fake.send_message(GROUP, MEMBERS[0], "/timezone Asia/Kolkata", thread_id=TOPIC)
    del message
    # Rewrite the queued update as Telegram sends anonymous admin posts.
    update = fake.pending_updates[-1]
    update["message"]["sender_chat"] = GROUP.to_dict()
    update["message"]["from"] = {"id": 1087968824, "is_bot": True, "first_name": "Group"}
    call = await fake.wait_for_call("sendMessage", since=since)
    assert call.params["text"].startswith("🕓 Time zone set to Asia/Kolkata")


async def test_group_becoming_supergroup_keeps_its_scores(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """After migrate_to_chat_id, the new supergroup has the old group's answers and settings."""
    old = FakeChat.group(-4242, "Small group")
    new = FakeChat.supergroup(-1009999999999, "Small group")
    fake.send_message(old, MEMBERS[0], "/quiz")
    call = await fake.wait_for_call("sendMessage")
    question = fake.message(old.id, call.result["message_id"])
    query = fake.press_button(old, MEMBERS[0], question.message_id, question.callback_data[0])
    await fake.callback_answer(query)
    fake.migrate_chat(old.id, new.id, notify=True, by=MEMBERS[0])
    await fake.idle()
    text = await _command(fake, MEMBERS[0], "/me", chat=new)
    assert "of 1 answered" in text
    assert await bot.store.chat(old.id) is None
    moved = await bot.store.chat(new.id)
    assert moved is not None
    assert moved.kind is ChatKind.SUPERGROUP


async def test_removed_bot_marks_chat_inactive_and_sends_nothing_more(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """After my_chat_member 'kicked' the chat is inactive: its question closes without a send."""
    question = await group_quiz(fake)
    ask_id = ask_id_of(question)
    fake.member_update(GROUP, MEMBERS[9], old_status="member", new_status="kicked")
    await fake.idle()
    settings = await bot.store.chat(GROUP.id)
    assert settings is not None
    assert not settings.active
    since = len(fake.calls)
    clock.advance(seconds=400)
    await tick(fake, bot)
    assert [c.method for c in fake.calls[since:] if c.method != "getUpdates"] == []
    ask = await bot.store.get_ask(ask_id)
    assert ask is not None
    assert ask.is_closed
