"""Daily fan-out end to end: within limits, through a 429 storm, stopped half-way."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from zoneinfo import ZoneInfo

from bot.app import RunningBot, running_bot
from bot.config import Settings
from bot.core.model import ChatKind, ChatRef, PushStatus
from bot.playground.botapi import ApiError, BotApiServer, FakeChat, RateLimits
from tests.e2e.conftest import StartBot, wait_for_polling
from tests.e2e.helpers.daily import ADMIN, GROUP
from tests.e2e.helpers.daily import fan_out as _fan_out
from tests.e2e.helpers.daily import push as _push
from tests.e2e.helpers.daily import questions as _questions
from tests.e2e.helpers.daily import say as _say
from tests.e2e.helpers.group import MEMBERS, tick
from tests.fakes.clock import FakeClock


async def test_fan_out_within_limits_still_answers_interactive_traffic(
    fake: BotApiServer, settings: Settings, clock: FakeClock
) -> None:
    """80 groups due at once under enforced limits: no 429, one push each, /quiz still served."""
    scale = 20
    fake.limits = RateLimits(factor=scale)
    chats = [FakeChat.supergroup(-1005570000 - i, f"G{i}") for i in range(80)]
    paced = settings.model_copy(update={"rate_limit_scale": scale})
    async with running_bot(paced, clock=clock, poll_timeout=1) as running:
        await wait_for_polling(fake)
        for chat in chats:
            await running.services.daily.turn_on(
                ChatRef(chat.id, ChatKind.SUPERGROUP), time(10, 0), ZoneInfo("UTC")
            )
        clock.set(datetime(2026, 12, 2, 10, 0, tzinfo=UTC))
        await running.ticker.tick()
        await fake.wait_until(lambda: len(fake.calls_to("sendMessage")) >= 10)
        learner = FakeChat.private(MEMBERS[7])
        asked_at = len(fake.calls)
        fake.send_message(learner, MEMBERS[7], "/quiz")
        await fake.wait_for_call(
            "sendMessage", lambda c: c.params["chat_id"] == learner.id, since=asked_at
        )
        pushed = sum(len(_questions(fake, chat.id)) for chat in chats)
        assert pushed < len(chats), "the interactive /quiz should not wait for the whole fan-out"
        await fake.wait_until(
            lambda: all(_questions(fake, chat.id) for chat in chats), what="every push"
        )
        await fake.idle()
    assert fake.rejected_429 == 0
    assert all(len(_questions(fake, chat.id)) == 1 for chat in chats)


async def test_429_storm_is_waited_out_and_nothing_is_lost_or_doubled(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """429s with retry_after are waited and retried: every chat gets exactly one push."""
    chats = [FakeChat.supergroup(-1005580000 - i, f"S{i}") for i in range(5)]
    for chat in chats:
        await bot.services.daily.turn_on(ChatRef(chat.id, ChatKind.SUPERGROUP), time(10, 0), None)
    storm = ApiError(429, "Too Many Requests: retry after 1", {"retry_after": 1})
    fake.fail_next("sendMessage", storm, storm)
    clock.set(datetime(2026, 12, 2, 10, 0, tzinfo=UTC))
    await _fan_out(bot, fake)
    assert [len(_questions(fake, chat.id)) for chat in chats] == [1] * 5
    pushes = [await _push(bot, chat.id, date(2026, 12, 2)) for chat in chats]
    assert {p.status for p in pushes} == {PushStatus.SENT}


async def test_daily_question_closes_with_a_reveal_after_the_open_hours(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """A daily group question takes answers for QUIZBOT_DAILY_OPEN_HOURS, then is revealed."""
    fake.set_admins(GROUP.id, [ADMIN.id])
    await _say(fake, ADMIN, "/daily 10:00 UTC")
    clock.set(datetime(2026, 12, 2, 10, 0, tzinfo=UTC))
    await _fan_out(bot, fake)
    question = next(m for m in fake.bot_messages(GROUP.id) if m.callback_data)
    assert question.text is not None
    assert "open until 22:00 UTC" in question.text
    clock.set(datetime(2026, 12, 2, 21, 59, tzinfo=UTC))
    await tick(fake, bot)
    assert fake.message(GROUP.id, question.message_id).reply_markup is not None
    clock.set(datetime(2026, 12, 2, 22, 0, tzinfo=UTC))
    await tick(fake, bot)
    revealed = fake.message(GROUP.id, question.message_id)
    assert not revealed.callback_data  # the answer buttons are gone (a report link stays)
    assert revealed.text is not None
    assert "💡" in revealed.text


async def test_graceful_stop_mid_fan_out_parks_the_rest_and_duplicates_nothing(
    fake: BotApiServer, start_bot: StartBot, clock: FakeClock
) -> None:
    """Stopping during a fan-out finishes in-flight sends; the restart sends the rest, once each."""
    chats = [FakeChat.supergroup(-1005590000 - i, f"P{i}") for i in range(60)]
    async with start_bot() as running:
        for chat in chats:
            await running.services.daily.turn_on(
                ChatRef(chat.id, ChatKind.SUPERGROUP), time(10, 0), None
            )
        fake.latency = 0.02
        clock.set(datetime(2026, 12, 2, 10, 0, tzinfo=UTC))
        await running.ticker.tick()
        await fake.wait_until(lambda: len(fake.calls_to("sendMessage")) >= 10)
    stopped_with = sum(len(_questions(fake, chat.id)) for chat in chats)
    assert 10 <= stopped_with < len(chats)
    fake.latency = 0.0
    async with start_bot() as running:
        await _fan_out(running, fake)
        pushes = [await _push(running, chat.id, date(2026, 12, 2)) for chat in chats]
        assert {p.status for p in pushes} == {PushStatus.SENT}
    assert [len(_questions(fake, chat.id)) for chat in chats] == [1] * len(chats)
