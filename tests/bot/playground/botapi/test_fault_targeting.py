"""Which calls an injected fault hits: ``when``, ``times``, order, fail_next and bookkeeping."""

from __future__ import annotations

import pytest
from telegram import Bot
from telegram.error import BadRequest, NetworkError

from bot.playground.botapi import (
    ApiError,
    BotApiServer,
    Drop,
    ResponseLost,
    Timeout,
    bad_gateway,
    internal_server_error,
    params_match,
)

CHAT, OTHER = 1001, 1002


async def test_when_targets_the_edit_of_one_message(fake: BotApiServer, bot: Bot) -> None:
    """when=params_match(chat_id, message_id) faults only that message's edits, times times."""
    first = await bot.send_message(CHAT, "one")
    second = await bot.send_message(CHAT, "two")
    elsewhere = await bot.send_message(OTHER, "two")  # same message_id, other chat
    target = params_match(chat_id=CHAT, message_id=second.message_id)
    injection = fake.inject("editMessageText", Drop(), when=target, times=2)
    await bot.edit_message_text("one!", CHAT, first.message_id)
    await bot.edit_message_text("two!", OTHER, elsewhere.message_id)
    for _ in range(2):
        with pytest.raises(NetworkError):
            await bot.edit_message_text("two!", CHAT, second.message_id)
    await bot.edit_message_text("two!", CHAT, second.message_id)
    attempts = fake.calls_to("editMessageText", where=target)
    assert [(c.status, c.fault) for c in attempts] == [(0, "dropped"), (0, "dropped"), (200, None)]
    assert injection.hits == attempts[:2]
    assert not injection.active
    assert [m.visible_text for m in fake.bot_messages(CHAT)] == ["one!", "two!"]


async def test_times_none_faults_until_cancelled(fake: BotApiServer, bot: Bot) -> None:
    """times=None keeps failing every matching call until the injection is cancelled."""
    injection = fake.inject("sendMessage", internal_server_error(), times=None)
    for _ in range(3):
        with pytest.raises(NetworkError, match="Internal Server Error"):
            await bot.send_message(CHAT, "x")
    assert fake.pending_faults == [injection]
    injection.cancel()
    assert fake.pending_faults == []
    assert (await bot.send_message(CHAT, "x")).text == "x"
    assert len(injection.hits) == 3


async def test_first_added_matching_fault_wins(fake: BotApiServer, bot: Bot) -> None:
    """Faults apply in the order added; a non-matching `when` lets later ones through."""
    fake.inject("sendMessage", bad_gateway(), when=lambda p: p.get("text") == "special")
    fake.inject("sendMessage", Drop())
    fake.inject("sendMessage", ApiError(400, "Bad Request: chat not found"))
    with pytest.raises(NetworkError):
        await bot.send_message(CHAT, "plain")  # Drop
    with pytest.raises(NetworkError, match="Bad Gateway"):
        await bot.send_message(CHAT, "special")
    with pytest.raises(BadRequest, match="Chat not found"):
        await bot.send_message(CHAT, "plain")
    assert [c.fault for c in fake.calls_to("sendMessage")] == ["dropped", "api_error", "api_error"]


async def test_fail_next_still_queues_errors_in_order(fake: BotApiServer, bot: Bot) -> None:
    """fail_next(method, *errors) answers the next calls with them, one each, in order."""
    fake.fail_next("sendmessage", bad_gateway(), internal_server_error())
    assert [e.status for e in fake.failures["sendMessage"]] == [502, 500]
    with pytest.raises(NetworkError, match="Bad Gateway"):
        await bot.send_message(CHAT, "x")
    with pytest.raises(NetworkError, match="Internal Server Error"):
        await bot.send_message(CHAT, "x")
    assert fake.failures == {}
    assert (await bot.send_message(CHAT, "x")).message_id == 1


async def test_clear_faults_cancels_everything(fake: BotApiServer, bot: Bot) -> None:
    """clear_faults() drops every pending injection, fail_next's included."""
    fake.fail_next("sendMessage", bad_gateway())
    fake.inject("sendMessage", Timeout(), times=None)
    fake.clear_faults()
    assert fake.pending_faults == []
    assert (await bot.send_message(CHAT, "x")).text == "x"


async def test_inject_rejects_unknown_methods_and_bad_times(fake: BotApiServer) -> None:
    """A typo in the method name or times < 1 is an error, not a silently unused fault."""
    with pytest.raises(ValueError, match="does not implement 'sendMesage'"):
        fake.inject("sendMesage", Drop())
    with pytest.raises(ValueError, match="times must be at least 1"):
        fake.inject("sendMessage", Drop(), times=0)
    assert fake.inject("SENDMESSAGE", Drop()).method == "sendMessage"


async def test_a_failing_when_predicate_is_reported(fake: BotApiServer, bot: Bot) -> None:
    """A `when` that raises answers 500 and lands in internal_errors, never silently skipped."""
    fake.inject("sendMessage", Drop(), when=lambda p: p["no_such_param"] == 1)
    with pytest.raises(NetworkError):
        await bot.send_message(CHAT, "x")
    assert fake.calls[-1].status == 500
    assert isinstance(fake.internal_errors[0], KeyError)


async def test_call_log_tells_attempts_from_effects(fake: BotApiServer, bot: Bot) -> None:
    """Every attempt is in calls; `processed` marks those that took effect (ResponseLost too)."""
    fake.inject("sendMessage", Drop())
    fake.inject("sendMessage", ResponseLost())
    for _ in range(3):
        try:
            await bot.send_message(CHAT, "exactly once?")
        except NetworkError:
            continue
    sends = fake.calls_to("sendMessage")
    assert [(c.fault, c.processed, c.ok) for c in sends] == [
        ("dropped", False, False),
        ("response_lost", True, False),
        (None, True, True),
    ]
    assert "[response_lost]" in sends[1].short()
    assert len(fake.bot_messages(CHAT)) == 2  # the lost response made the retry a duplicate
