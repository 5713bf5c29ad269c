"""Every kind of failure at every send of a group round: each message appears exactly once."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.app import RunningBot
from bot.playground.botapi import BotApiServer, JsonDict, StoredMessage
from tests.e2e.helpers.faults import PERMANENT, TRANSIENT, drive, has_buttons, nth, text_has
from tests.e2e.helpers.group import GROUP, MEMBERS, TOPIC, group_quiz
from tests.fakes.clock import FakeClock

# (method, when) for each send of `/quiz 2` → close → reveal → next → close → reveal → summary.
STEPS: dict[str, tuple[str, Callable[[], Callable[[JsonDict], bool]]]] = {
    "first question": ("sendMessage", lambda: nth(1, has_buttons)),
    "first reveal": ("editMessageText", lambda: nth(1, text_has("💡"))),
    "second question": ("sendMessage", lambda: nth(2, has_buttons)),
    "second reveal": ("editMessageText", lambda: nth(2, text_has("💡"))),
    "summary": ("sendMessage", lambda: nth(1, text_has("🏁"))),
}


def _questions(fake: BotApiServer) -> list[StoredMessage]:
    return [m for m in fake.bot_messages(GROUP.id) if m.text and m.text.startswith("❓ <b>")]


def _summaries(fake: BotApiServer) -> list[StoredMessage]:
    return [m for m in fake.bot_messages(GROUP.id) if m.text and m.text.startswith("🏁")]


async def _play_round(fake: BotApiServer, bot: RunningBot, clock: FakeClock) -> None:
    fake.send_message(GROUP, MEMBERS[0], "/quiz 2", thread_id=TOPIC)
    await fake.idle()
    await drive(fake, bot, clock, lambda: bool(_summaries(fake)), chat_id=GROUP.id)


def _assert_round_shown_once(fake: BotApiServer) -> None:
    questions = _questions(fake)
    assert len(questions) == 2
    for question in questions:
        assert not question.callback_data, "every question was revealed"
        assert question.text is not None
        assert "💡" in question.text
    assert len(_summaries(fake)) == 1


@pytest.mark.parametrize("step", list(STEPS))
@pytest.mark.parametrize("fault", list(TRANSIENT))
async def test_a_transient_failure_anywhere_in_a_round_is_retried_to_exactly_once(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock, step: str, fault: str
) -> None:
    """A 5xx, time-out, dropped connection or 429 at any send: all shown once, chat usable."""
    method, when = STEPS[step]
    injected = fake.inject(method, TRANSIENT[fault], when=when())
    await _play_round(fake, bot, clock)
    assert injected.hits, "the fault was injected"
    _assert_round_shown_once(fake)
    question = await group_quiz(fake, MEMBERS[1])
    assert question.buttons, "the chat can play again"


@pytest.mark.parametrize("step", ["first reveal", "second question", "second reveal"])
async def test_the_round_moves_on_while_a_reveal_is_still_failing(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock, step: str
) -> None:
    """Even a send that keeps failing for a while never strands the round."""
    method, when = STEPS[step]
    fake.inject(method, TRANSIENT["502"], when=when(), times=3)
    await _play_round(fake, bot, clock)
    _assert_round_shown_once(fake)


async def test_a_question_telegram_refuses_ends_the_round_with_a_notice(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """A permanent error on a round's question: a short notice, and a new round can start."""
    fake.inject("sendMessage", PERMANENT, when=nth(1, has_buttons))
    fake.send_message(GROUP, MEMBERS[0], "/quiz 2", thread_id=TOPIC)
    await fake.idle()
    notices = lambda: [m for m in fake.bot_messages(GROUP.id) if "⚠️" in (m.text or "")]  # noqa: E731
    await drive(fake, bot, clock, lambda: bool(notices()), chat_id=GROUP.id)
    assert len(notices()) == 1
    assert _questions(fake) == []
    fake.send_message(GROUP, MEMBERS[0], "/quiz 1", thread_id=TOPIC)
    await drive(fake, bot, clock, lambda: bool(_summaries(fake)), chat_id=GROUP.id)
    assert len(_questions(fake)) == 1
