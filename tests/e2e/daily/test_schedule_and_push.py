"""Daily questions end to end: commands, pushes at local times, catch-up, the ledger, errors."""

from __future__ import annotations

import logging
from datetime import UTC, date, datetime, timedelta

import pytest

from bot.app import RunningBot
from bot.core.delivery import BACKOFF_SECONDS
from bot.core.model import PushStatus
from bot.playground.botapi import ApiError, BotApiServer, FakeChat
from tests.e2e.conftest import StartBot
from tests.e2e.helpers.daily import ADMIN, GROUP
from tests.e2e.helpers.daily import fan_out as _fan_out
from tests.e2e.helpers.daily import push as _push
from tests.e2e.helpers.daily import questions as _questions
from tests.e2e.helpers.daily import say as _say
from tests.e2e.helpers.group import MEMBERS
from tests.fakes.clock import FakeClock


async def test_daily_commands_validate_refuse_and_report(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """Bad input gets usage, non-admins a refusal, admins a schedule /daily then shows."""
    fake.set_admins(GROUP.id, [ADMIN.id])
    assert (await _say(fake, ADMIN, "/daily")).startswith("The daily question is off.")
    for bad in ("/daily 25:00", "/daily 9", "/daily 09:00 Europe/Berlin extra", "/daily tomorrow"):
        assert "Usage: /daily" in await _say(fake, ADMIN, bad)
    unknown = await _say(fake, ADMIN, "/daily 09:00 Mars/Olympus")
    assert "I don't know the time zone" in unknown
    assert await bot.store.schedule(GROUP.id) is None
    clock.advance(seconds=60)  # six commands a minute each, or the member is told to slow down
    refused = await _say(fake, MEMBERS[1], "/daily 09:00")
    assert refused == "Only this chat's admins can change its settings."
    done = await _say(fake, ADMIN, "/daily 09:00 Europe/Berlin")
    assert "every day at <b>09:00</b> Europe/Berlin" in done
    assert "Next one: Thu 03 Dec, 09:00 Europe/Berlin." in done  # it is 10:00 there now
    status = await _say(fake, MEMBERS[1], "/daily")
    assert status.startswith("📅 Daily question: on, every day at <b>09:00</b> Europe/Berlin.")
    assert (await _say(fake, ADMIN, "/daily off")).startswith("The daily question is off.")
    assert (await _say(fake, ADMIN, "/daily")).startswith("The daily question is off.")


async def test_deck_lists_and_switching_is_for_admins(fake: BotApiServer, bot: RunningBot) -> None:
    """/deck shows the chat's deck; /deck ID by a non-admin or for an unknown id changes nothing."""
    fake.set_admins(GROUP.id, [ADMIN.id])
    shown = await _say(fake, MEMBERS[1], "/deck")
    assert "This chat's deck: <b>NCA Multi-GPU Computing &amp; Scaling 5</b>" in shown
    assert (await _say(fake, MEMBERS[1], "/deck nca-multi-gpu-5")).startswith("Only this chat")
    assert (await _say(fake, ADMIN, "/deck nope")).startswith("There is no deck “nope”.")
    assert (await _say(fake, ADMIN, "/deck nca-multi-gpu-5")).startswith("📚 This chat now uses")


async def test_private_user_sets_their_own_daily_and_gets_it_once(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """In a private chat the user sets the schedule; the push comes at the slot, once."""
    user = MEMBERS[5]
    chat = FakeChat.private(user)
    await _say(fake, user, "/daily 10:30", chat)
    clock.set(datetime(2026, 12, 2, 10, 29, tzinfo=UTC))
    await _fan_out(bot, fake)
    assert _questions(fake, chat.id) == []
    clock.set(datetime(2026, 12, 2, 10, 30, tzinfo=UTC))
    await _fan_out(bot, fake)
    await _fan_out(bot, fake)
    assert len(_questions(fake, chat.id)) == 1
    clock.set(datetime(2026, 12, 3, 10, 30, 5, tzinfo=UTC))
    await _fan_out(bot, fake)
    assert len(_questions(fake, chat.id)) == 2


@pytest.mark.parametrize(
    ("zone", "local_time", "days"),
    [
        # Spring forward: 09:00 stays 09:00 local; 02:30 on the change day becomes 03:30.
        ("Europe/Berlin", "09:00", ["2026-03-28T08:00", "2026-03-29T07:00", "2026-03-30T07:00"]),
        ("Europe/Berlin", "02:30", ["2026-03-28T01:30", "2026-03-29T01:30", "2026-03-30T00:30"]),
        # Fall back: 02:30 happens twice on the change day and is pushed once, the first time.
        ("Europe/Berlin", "02:30", ["2026-10-24T00:30", "2026-10-25T00:30", "2026-10-26T01:30"]),
        ("America/New_York", "09:00", ["2026-03-07T14:00", "2026-03-08T13:00", "2026-03-09T13:00"]),
        ("America/New_York", "01:30", ["2026-10-31T05:30", "2026-11-01T05:30", "2026-11-02T06:30"]),
    ],
)
async def test_pushes_follow_local_time_across_dst_exactly_once_a_day(
    fake: BotApiServer,
    bot: RunningBot,
    clock: FakeClock,
    zone: str,
    local_time: str,
    days: list[str],
) -> None:
    """Ticking every 30 minutes over three days around a change gives one push per day, on time."""
    fake.set_admins(GROUP.id, [ADMIN.id])
    first = datetime.fromisoformat(days[0]).replace(tzinfo=UTC)
    clock.set(first.replace(hour=0, minute=0))
    await _say(fake, ADMIN, f"/daily {local_time} {zone}")
    pushed_at = []
    for _ in range(3 * 48):
        clock.advance(minutes=30)
        before = len(_questions(fake, GROUP.id))
        await _fan_out(bot, fake)
        if len(_questions(fake, GROUP.id)) > before:
            pushed_at.append(clock.now())
    pushes = [
        await bot.store.push_for(GROUP.id, first.date() + timedelta(days=n)) for n in range(-1, 5)
    ]
    sent = [p for p in pushes if p is not None and p.status is PushStatus.SENT]
    slots = [p.slot_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M") for p in sent]
    assert slots == days
    assert all(p is None or p.status is PushStatus.SENT for p in pushes)
    assert len(pushed_at) == len(slots)
    assert all(
        0 <= (at - datetime.fromisoformat(s).replace(tzinfo=UTC)).total_seconds() < 1800
        for at, s in zip(pushed_at, slots, strict=True)
    )


async def test_missed_push_is_caught_up_within_grace_and_skipped_after(
    fake: BotApiServer, start_bot: StartBot, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    """Down over a slot: within 6 h it is sent once after start; a slot 7 h old is skipped."""
    fake.set_admins(GROUP.id, [ADMIN.id])
    other = FakeChat.supergroup(-1005550002, "Late group")
    fake.set_admins(other.id, [ADMIN.id])
    async with start_bot():
        await _say(fake, ADMIN, "/daily 10:00 UTC")
        await _say(fake, ADMIN, "/daily 03:00 UTC", other)
    clock.set(datetime(2026, 12, 3, 10, 0, tzinfo=UTC))  # other's slot is 7 h old
    with caplog.at_level(logging.WARNING):
        async with start_bot() as running:
            await _fan_out(running, fake)
            await _fan_out(running, fake)
    assert len(_questions(fake, GROUP.id)) == 1
    assert _questions(fake, other.id) == []
    assert any(
        "missed" in r.getMessage() and str(other.id) in r.getMessage() for r in caplog.records
    )


async def test_ledger_resumes_after_a_crash_without_duplicates(
    fake: BotApiServer, start_bot: StartBot, clock: FakeClock
) -> None:
    """Pushes left pending (one with its ask already made) are sent once after a restart;
    one recorded as sent before the crash is not sent again."""
    chats = [FakeChat.supergroup(-1005560000 - i, f"G{i}") for i in range(12)]
    today = date(2026, 12, 2)
    async with start_bot() as running:
        for chat in chats:
            fake.set_admins(chat.id, [ADMIN.id])
            await _say(fake, ADMIN, "/daily 10:00 UTC", chat)
        # The crash: stop before the sender ran, with the slots planned, the first chat's ask
        # made and the second chat's push recorded as sent. (The replies to /daily are all
        # sent first: a chat's own sender also sends its due pushes, feeder or not.)
        await running.sender.idle()
        daily = running.services.daily
        await running.sender.stop_bulk()
        clock.set(datetime(2026, 12, 2, 10, 0, tzinfo=UTC))
        await daily.plan_due()
        half_done, done = [await _push(running, c.id, today) for c in chats[:2]]
        asked: dict[int, int] = {}
        for push in (half_done, done):
            ref = await running.services.chats.deliverable(push.chat_id)
            assert ref is not None
            asked[push.chat_id] = (await daily.ask_for(push, ref)).id
        async with running.store.transaction() as writes:
            await writes.mark_push_sent(done.chat_id, today, asked[done.chat_id], 1, clock.now())
        pending = {p.chat_id for p in await running.store.pending_pushes(100)}
        assert pending == {c.id for c in chats} - {done.chat_id}
    async with start_bot() as running:
        await _fan_out(running, fake)
        pushes = [await _push(running, c.id, today) for c in chats]
        assert {p.status for p in pushes} == {PushStatus.SENT}
        ask_ids = [p.ask_id for p in pushes]
        assert None not in ask_ids
        assert len(set(ask_ids)) == len(chats)  # one ask per push: none asked twice
        assert pushes[0].ask_id == asked[chats[0].id]  # the ask made before the crash is used
        for push in [pushes[0], *pushes[2:]]:  # posted now, each ask with its message
            ask = await running.store.get_ask(push.ask_id or 0)
            assert ask is not None
            assert ask.message_id == push.message_id
    assert _questions(fake, chats[1].id) == []
    assert all(len(_questions(fake, c.id)) == 1 for c in chats if c is not chats[1])


async def test_removed_bot_turns_the_schedule_off_without_retrying(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """403 on a push marks the chat inactive, turns its schedule off and is not retried."""
    fake.set_admins(GROUP.id, [ADMIN.id])
    await _say(fake, ADMIN, "/daily 10:00 UTC")
    fake.kick_bot(GROUP.id)
    clock.set(datetime(2026, 12, 2, 10, 0, tzinfo=UTC))
    since = len(fake.calls)
    await _fan_out(bot, fake)
    assert len([c for c in fake.calls[since:] if c.method == "sendMessage"]) == 1
    schedule = await bot.store.schedule(GROUP.id)
    assert schedule is not None
    assert not schedule.enabled
    assert (await _push(bot, GROUP.id, date(2026, 12, 2))).status is PushStatus.FAILED
    settings = await bot.store.chat(GROUP.id)
    assert settings is not None
    assert not settings.active
    clock.set(datetime(2026, 12, 3, 10, 0, tzinfo=UTC))
    since = len(fake.calls)
    await _fan_out(bot, fake)
    assert not [c for c in fake.calls[since:] if c.method == "sendMessage"]


async def test_removal_update_turns_the_schedule_off_before_any_push(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """my_chat_member 'kicked' turns the chat's schedule off at once: its slot sends nothing."""
    fake.set_admins(GROUP.id, [ADMIN.id])
    await _say(fake, ADMIN, "/daily 10:00 UTC")
    fake.member_update(GROUP, ADMIN, old_status="member", new_status="kicked")
    await fake.idle()
    schedule = await bot.store.schedule(GROUP.id)
    assert schedule is not None
    assert not schedule.enabled
    clock.set(datetime(2026, 12, 2, 10, 0, tzinfo=UTC))
    since = len(fake.calls)
    await _fan_out(bot, fake)
    assert not [c for c in fake.calls[since:] if c.method == "sendMessage"]
    assert await bot.store.push_for(GROUP.id, date(2026, 12, 2)) is None


async def test_daily_set_in_a_forum_topic_is_posted_in_that_topic(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """/daily sent in a forum topic posts the question there; sent in General, in General."""
    forum = FakeChat.supergroup(-1005550009, "Forum", forum=True)
    fake.set_admins(forum.id, [ADMIN.id])
    fake.send_message(forum, ADMIN, "/daily 10:00 UTC", thread_id=7)
    await fake.idle()
    clock.set(datetime(2026, 12, 2, 10, 0, tzinfo=UTC))
    await _fan_out(bot, fake)
    assert _question_threads(fake, forum.id) == [7]
    fake.send_message(forum, ADMIN, "/daily 10:00 UTC")
    await fake.idle()
    clock.set(datetime(2026, 12, 3, 10, 0, tzinfo=UTC))
    await _fan_out(bot, fake)
    assert _question_threads(fake, forum.id) == [7, None]


def _question_threads(fake: BotApiServer, chat_id: int) -> list[int | None]:
    """The topic of each question the bot posted to a chat (sent with answer buttons)."""
    return [
        c.params.get("message_thread_id")
        for c in fake.calls
        if c.method == "sendMessage"
        and c.params.get("chat_id") == chat_id
        and "reply_markup" in c.params
    ]


async def test_migrated_chat_gets_its_push_at_the_new_id(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """A push to a group that became a supergroup moves the chat and is sent to the new id."""
    old = FakeChat.group(-5550003, "Old group")
    fake.set_admins(old.id, [ADMIN.id])
    await _say(fake, ADMIN, "/daily 10:00 UTC", old)
    fake.migrate_chat(old.id, -1005550003)
    clock.set(datetime(2026, 12, 2, 10, 0, tzinfo=UTC))
    await _fan_out(bot, fake)
    assert len(_questions(fake, -1005550003)) == 1
    assert (await _push(bot, -1005550003, date(2026, 12, 2))).status is PushStatus.SENT
    assert await bot.store.push_for(old.id, date(2026, 12, 2)) is None


async def test_failures_retry_with_backoff_then_record_failed(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """Server errors are retried with the outbox's back-off, a bounded number of times, then
    the day is marked failed; another chat's push is not held back."""
    fake.set_admins(GROUP.id, [ADMIN.id])
    other = FakeChat.supergroup(-1005550009, "Flaky group")
    fake.set_admins(other.id, [ADMIN.id])
    await _say(fake, ADMIN, "/daily 10:00 UTC")
    await _say(fake, ADMIN, "/daily 11:00 UTC", other)
    error = ApiError(502, "Bad Gateway")
    fake.fail_next("sendMessage", *[error] * len(BACKOFF_SECONDS))
    clock.set(datetime(2026, 12, 2, 10, 0, tzinfo=UTC))
    await _fan_out(bot, fake)
    for wait in BACKOFF_SECONDS:
        clock.advance(seconds=wait)
        await _fan_out(bot, fake)
    failed = await _push(bot, GROUP.id, date(2026, 12, 2))
    assert (failed.status, failed.attempts) == (PushStatus.FAILED, len(BACKOFF_SECONDS))
    assert _questions(fake, GROUP.id) == []
    fake.fail_next("sendMessage", error)
    clock.set(datetime(2026, 12, 2, 11, 0, tzinfo=UTC))
    await _fan_out(bot, fake)
    clock.advance(seconds=BACKOFF_SECONDS[0])
    await _fan_out(bot, fake)
    assert len(_questions(fake, other.id)) == 1
