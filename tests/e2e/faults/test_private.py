"""Failures in a private round: the player still gets every message exactly once."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.app import RunningBot
from bot.playground.botapi import BotApiServer, JsonDict, StoredMessage
from tests.e2e.conftest import ALICE, alice_private
from tests.e2e.helpers.faults import PERMANENT, TRANSIENT, has_buttons, nth, settle, text_has
from tests.fakes.clock import FakeClock


def _is_explanation(params: JsonDict) -> bool:
    text = str(params.get("text", ""))
    return text.startswith(("✅ <b>Correct", "❌ <b>Not quite"))


def _is_marking(params: JsonDict) -> bool:
    return "your answer" in str(params.get("text", ""))


# The sends of `/quiz 2` played to the end, in order.
STEPS: dict[str, tuple[str, Callable[[], Callable[[JsonDict], bool]]]] = {
    "question": ("sendMessage", lambda: nth(1, has_buttons)),
    "marked question": ("editMessageText", lambda: nth(1, _is_marking)),
    "explanation": ("sendMessage", lambda: nth(1, _is_explanation)),
    "next question": ("sendMessage", lambda: nth(2, has_buttons)),
    "removed Next button": ("editMessageReplyMarkup", lambda: nth(1, lambda p: True)),
    "last explanation with the summary": ("sendMessage", lambda: nth(1, text_has("🏁"))),
}


def _mine(fake: BotApiServer, prefix: tuple[str, ...]) -> list[StoredMessage]:
    return [m for m in fake.bot_messages(ALICE.id) if (m.text or "").startswith(prefix)]


def _summaries(fake: BotApiServer) -> list[StoredMessage]:
    return [m for m in fake.bot_messages(ALICE.id) if "🏁" in (m.text or "")]


async def _until(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock, found: Callable[[], list[StoredMessage]]
) -> StoredMessage:
    for _ in range(20):
        await settle(fake, bot, clock, 31)
        if found():
            return found()[-1]
    raise AssertionError("the message never came")


async def _play(fake: BotApiServer, bot: RunningBot, clock: FakeClock) -> None:
    chat = alice_private()
    fake.send_message(chat, ALICE, "/quiz 2")
    for number in (1, 2):
        question = await _until(fake, bot, clock, lambda n=number: _mine(fake, ("❓",))[n - 1 : n])
        query = fake.press_button(chat, ALICE, question.message_id, question.callback_data[0])
        await fake.callback_answer(query)
        explanation = await _until(
            fake, bot, clock, lambda n=number: _mine(fake, ("✅", "❌"))[n - 1 : n]
        )
        if number == 1:
            fake.press_button(chat, ALICE, explanation.message_id, explanation.button("Next"))
    await _until(fake, bot, clock, lambda: _summaries(fake))
    for _ in range(10):
        if not await bot.store.pending_effects(ALICE.id, 1):
            return
        await settle(fake, bot, clock, 31)
    raise AssertionError("messages are still owed")


@pytest.mark.parametrize("step", list(STEPS))
@pytest.mark.parametrize("fault", ["502", "timeout", "dropped", "429"])
async def test_a_transient_failure_in_a_private_round_is_retried_to_exactly_once(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock, step: str, fault: str
) -> None:
    """Questions, marks, explanations, the summary: each shown once despite the failure."""
    method, when = STEPS[step]
    injected = fake.inject(method, TRANSIENT[fault], when=when())
    await _play(fake, bot, clock)
    assert injected.hits
    questions = _mine(fake, ("❓",))
    assert len(questions) == 2
    assert all(q.reply_markup is None and "your answer" in (q.text or "") for q in questions)
    assert len(_mine(fake, ("✅", "❌"))) == 2
    if (step, fault) != ("removed Next button", "429"):
        # Removing a used Next button is cosmetic: under flood control it is skipped.
        # Every explanation keeps only its `⚑ Report`.
        shown = [[b["text"] for b in m.buttons] for m in _mine(fake, ("✅", "❌"))]
        assert shown == [["⚑ Report"]] * len(shown)
    assert len(_summaries(fake)) == 1


async def test_a_quiz_telegram_refuses_gets_a_short_reply_not_silence(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """A permanent error on /quiz's question: the player is told, and /quiz works again."""
    fake.inject("sendMessage", PERMANENT, when=nth(1, has_buttons))
    fake.send_message(alice_private(), ALICE, "/quiz")
    notice = await _until(fake, bot, clock, lambda: _mine(fake, ("⚠️",)))
    assert "Try /quiz again" in (notice.text or "")
    fake.send_message(alice_private(), ALICE, "/quiz")
    await _until(fake, bot, clock, lambda: _mine(fake, ("❓",)))
