"""A private `/me` says whether the learner's memory model is fitted to them: the defaults (and
how many reviews until a fit) or their own parameters, with the reviews and the date."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.app import RunningBot
from bot.core.model import LearnSource, MemoryFit
from bot.playground.botapi import BotApiServer
from tests.e2e.conftest import ALICE, alice_private

DECK = "nca-multi-gpu-5"


async def _me(fake: BotApiServer) -> str:
    since = len(fake.calls)
    fake.send_message(alice_private(), ALICE, "/me")
    call = await fake.wait_for_call("sendMessage", since=since)
    return str(call.params["text"])


async def _log(bot: RunningBot, presses: int) -> None:
    start = datetime(2026, 11, 1, tzinfo=UTC)
    async with bot.store.transaction() as writes:
        for n in range(presses):
            at = start + timedelta(hours=n)
            await writes.log_learning(ALICE.id, DECK, f"q{n}", True, at, None, LearnSource.QUIZ)


async def test_me_says_the_memory_model_is_the_default_until_enough_reviews(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """37 reviews of 400: the line says so."""
    await _log(bot, 37)
    me = await _me(fake)
    assert "🧠 Memory model: default (personalised after 400 reviews; you have 37)" in me


async def test_me_says_the_memory_model_is_fitted_once_a_fit_was_kept(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """A kept fit on 523 reviews, made on 12 Dec: the line names both."""
    fitted_at = datetime(2026, 12, 12, 4, tzinfo=UTC)
    weights = tuple(0.1 * (n + 1) for n in range(21))
    await bot.store.save_memory_fit(MemoryFit(ALICE.id, DECK, weights, 523, 0.4, 0.35, fitted_at))
    me = await _me(fake)
    assert "🧠 Memory model: fitted to your 523 reviews (12 Dec)" in me


async def test_me_says_the_defaults_stayed_when_they_predicted_better(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """A fit whose parameters lost to the defaults: still the defaults, and why."""
    fitted_at = datetime(2026, 12, 3, tzinfo=UTC)
    await bot.store.save_memory_fit(MemoryFit(ALICE.id, DECK, None, 450, 0.3, 0.32, fitted_at))
    me = await _me(fake)
    assert "🧠 Memory model: default (it predicted your reviews better" in me
