"""The shipped decks in play: the real deck is the default, the seed deck stays selectable and
shows its notes after the explanation."""

from __future__ import annotations

from collections.abc import AsyncIterator
from random import Random

import pytest

from bot.app import running_bot
from bot.config import Settings
from bot.playground.botapi import BotApiServer
from tests.e2e.conftest import ALICE, alice_private, wait_for_polling
from tests.fakes.clock import FakeClock


@pytest.fixture
async def default_bot(
    settings: Settings, clock: FakeClock, fake: BotApiServer
) -> AsyncIterator[None]:
    shipped = settings.model_copy(
        update={"default_deck": Settings.model_fields["default_deck"].default}
    )
    async with running_bot(shipped, clock=clock, poll_timeout=1, rng=Random(3)):
        await wait_for_polling(fake)
        yield


async def _say(fake: BotApiServer, text: str) -> str:
    since = len(fake.calls)
    fake.send_message(alice_private(), ALICE, text)
    call = await fake.wait_for_call("sendMessage", since=since)
    return str(call.params["text"])


async def test_the_real_deck_is_the_default_and_the_seed_deck_is_selectable(
    fake: BotApiServer, default_bot: None
) -> None:
    """A new chat gets the multi-GPU deck; /deck lists the seed deck, which can be chosen."""
    question = await _say(fake, "/quiz")
    assert "<b>NCA Multi-GPU Computing &amp; Scaling</b>" in question
    shown = await _say(fake, "/deck")
    assert "nca-multi-gpu-5" in shown
    switched = await _say(fake, "/deck nca-multi-gpu-5")
    assert switched.startswith("📚 This chat now uses")
    assert "Scaling 5" in switched


async def test_a_seed_question_with_a_research_note_shows_it_after_the_explanation(
    fake: BotApiServer, default_bot: None
) -> None:
    """Playing the whole seed deck: exactly its three noted questions show a 📝 note."""
    await _say(fake, "/deck nca-multi-gpu-5")
    fake.send_message(alice_private(), ALICE, "/quiz 5")
    explanations: list[str] = []
    for number in range(5):
        call = await fake.wait_for_call(
            "sendMessage", lambda c: str(c.params["text"]).startswith("❓"), count=number + 1
        )
        question = fake.message(ALICE.id, call.result["message_id"])
        fake.press_button(alice_private(), ALICE, question.message_id, question.callback_data[0])
        answer = await fake.wait_for_call(
            "sendMessage", lambda c: "💡" in str(c.params["text"]), count=number + 1
        )
        explanations.append(str(answer.params["text"]))
        if number < 4:
            reply = fake.message(ALICE.id, answer.result["message_id"])
            fake.press_button(alice_private(), ALICE, reply.message_id, reply.button("Next"))
    noted = [text for text in explanations if "📝" in text]
    assert len(noted) == 3
    assert any("UCX" in text and "verbs" in text.split("📝")[1] for text in noted)
    assert all(text.index("💡") < text.index("📝") for text in noted)
