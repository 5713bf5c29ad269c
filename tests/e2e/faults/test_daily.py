"""Failures at a daily push and at its reveal: the day's question is shown exactly once."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from bot.app import RunningBot
from bot.playground.botapi import BotApiServer, FakeChat
from tests.e2e.helpers.daily import push
from tests.e2e.helpers.faults import TRANSIENT, has_buttons, nth, settle, text_has
from tests.e2e.helpers.group import MEMBERS
from tests.fakes.clock import FakeClock

ADMIN = MEMBERS[0]
GROUP = FakeChat.supergroup(-1005550077, "Daily faults")


@pytest.mark.parametrize("where", ["push", "reveal"])
@pytest.mark.parametrize("fault", list(TRANSIENT))
async def test_a_transient_failure_of_a_daily_push_or_its_reveal_shows_it_once(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock, fault: str, where: str
) -> None:
    """The push is retried to exactly one question, which is revealed exactly once."""
    fake.set_admins(GROUP.id, [ADMIN.id])
    fake.send_message(GROUP, ADMIN, "/daily 10:00 UTC")
    await fake.idle()
    when = nth(1, has_buttons) if where == "push" else nth(1, text_has("💡"))
    injected = fake.inject(
        "sendMessage" if where == "push" else "editMessageText", TRANSIENT[fault], when=when
    )
    clock.set(datetime(2026, 12, 2, 10, 0, tzinfo=UTC))
    await settle(fake, bot, clock, 0)
    for step in (6 * 3600, 6 * 3600, 60, 60):  # open for 12 hours, then retries
        await settle(fake, bot, clock, step)
    assert injected.hits
    questions = [m for m in fake.bot_messages(GROUP.id) if (m.text or "").startswith("❓ <b>")]
    assert len(questions) == 1
    assert not questions[0].callback_data  # revealed: no answer buttons left
    assert "💡" in (questions[0].text or "")
    assert not await bot.store.pending_effects(GROUP.id, 1)


@pytest.mark.parametrize("fault", list(TRANSIENT))
async def test_a_retried_daily_push_drafts_one_question_not_one_per_attempt(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock, fault: str
) -> None:
    """Retries of a failed push send the question drafted first; no orphan asks are left."""
    fake.set_admins(GROUP.id, [ADMIN.id])
    fake.send_message(GROUP, ADMIN, "/daily 10:00 UTC")
    await fake.idle()
    injected = fake.inject("sendMessage", TRANSIENT[fault], when=has_buttons, times=2)
    clock.set(datetime(2026, 12, 2, 10, 0, tzinfo=UTC))
    for step in (0, 60, 60):  # the push, then its retries after their back-off
        await settle(fake, bot, clock, step)
    assert len(injected.hits) == 2
    questions = [m for m in fake.bot_messages(GROUP.id) if (m.text or "").startswith("❓ <b>")]
    assert len(questions) == 1
    ledger = await push(bot, GROUP.id, date(2026, 12, 2))
    assert ledger.ask_id is not None
    ask = await bot.store.get_ask(ledger.ask_id)
    assert ask is not None
    state = await bot.store.pass_state(GROUP.id, ask.deck_id)
    assert state.asked == {ask.question_id}
