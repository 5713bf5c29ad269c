"""Each injected fault end to end, seen by real HTTP clients (aiohttp, and PTB on httpx)."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from telegram import Bot
from telegram.error import ChatMigrated, Forbidden, NetworkError, RetryAfter, TimedOut
from telegram.request import HTTPXRequest

from bot.playground.botapi import (
    NGINX_BAD_GATEWAY,
    ApiError,
    BotApiServer,
    Drop,
    ResponseLost,
    Timeout,
    bad_gateway,
    bot_kicked,
    chat_migrated,
    internal_server_error,
    too_many_requests,
)

CHAT = 1001
SHORT = aiohttp.ClientTimeout(sock_read=0.2)


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def send(
    http: aiohttp.ClientSession, fake: BotApiServer, text: str = "hi", **kw: Any
) -> tuple[int, Any]:
    """POST sendMessage; (status, decoded JSON or raw bytes)."""
    url = f"{fake.url}/bot{fake.token}/sendMessage"
    async with http.post(url, json={"chat_id": CHAT, "text": text}, **kw) as response:
        body = await response.read()
        is_json = response.content_type == "application/json"
        return response.status, await response.json() if is_json else body


async def settled(fake: BotApiServer) -> None:
    """Wait until the fake has recorded the outcome of every call so far."""
    await fake.wait_until(lambda: all(c.status is not None for c in fake.calls), timeout=2.0)


@pytest.mark.parametrize(
    "error",
    [
        bad_gateway(),
        internal_server_error(),
        too_many_requests(7),
        bot_kicked(),
        chat_migrated(-1001234),
    ],
    ids=lambda e: f"{e.status}",
)
async def test_api_error_is_answered_without_processing(
    fake: BotApiServer, http: aiohttp.ClientSession, error: ApiError
) -> None:
    """An injected ApiError reaches the client as Telegram's JSON error; nothing is sent."""
    injection = fake.inject("sendMessage", error)
    status, body = await send(http, fake)
    assert status == error.status
    assert body == {"ok": False, "error_code": error.status, "description": error.description} | (
        {"parameters": error.parameters} if error.parameters else {}
    )
    (call,) = fake.calls
    assert (call.status, call.fault, call.processed) == (error.status, "api_error", False)
    assert injection.hits == [call]
    assert fake.bot_messages(CHAT) == []
    assert (await send(http, fake))[0] == 200  # times=1: the next call goes through


async def test_api_errors_raise_ptb_exceptions(fake: BotApiServer, bot: Bot) -> None:
    """PTB maps the injected errors: 502 NetworkError, 429 RetryAfter, 403, 400 migrate."""
    fake.fail_next("sendMessage", bad_gateway())
    fake.inject("sendMessage", too_many_requests(3))
    fake.inject("sendMessage", bot_kicked())
    fake.inject("sendMessage", chat_migrated(-1009))
    with pytest.raises(NetworkError, match="Bad Gateway"):
        await bot.send_message(CHAT, "x")
    with pytest.raises(RetryAfter) as retry:
        await bot.send_message(CHAT, "x")
    assert retry.value.retry_after == dt.timedelta(seconds=3)
    with pytest.raises(Forbidden, match="bot was kicked from the group chat"):
        await bot.send_message(CHAT, "x")
    with pytest.raises(ChatMigrated) as migrated:
        await bot.send_message(CHAT, "x")
    assert migrated.value.new_chat_id == -1009
    assert [c.status for c in fake.calls_to("sendMessage")] == [502, 429, 403, 400]
    assert fake.bot_messages(CHAT) == []


async def test_raw_nginx_502_is_answered_verbatim(
    fake: BotApiServer, http: aiohttp.ClientSession, bot: Bot
) -> None:
    """RawResponse answers a non-JSON body (nginx's HTML 502); PTB sees a NetworkError."""
    fake.inject("sendMessage", NGINX_BAD_GATEWAY, times=2)
    status, body = await send(http, fake)
    assert (status, body) == (502, NGINX_BAD_GATEWAY.body)
    with pytest.raises(NetworkError, match=r"Bad Gateway \(502\)"):
        await bot.send_message(CHAT, "x")
    answered = [(c.status, c.fault) for c in fake.calls_to("sendMessage")]
    assert answered == [(502, "raw_response")] * 2
    assert fake.bot_messages(CHAT) == []


async def test_timeout_holds_until_the_client_gives_up(
    fake: BotApiServer, http: aiohttp.ClientSession
) -> None:
    """Timeout() answers nothing: the client's read timeout fires; the call never runs."""
    fake.inject("sendMessage", Timeout())
    started = time.monotonic()
    with pytest.raises(TimeoutError):
        await send(http, fake, timeout=SHORT)
    assert 0.2 <= time.monotonic() - started < 1.0  # the client's 0.2 s, not a hold
    await settled(fake)
    (call,) = fake.calls
    assert (call.status, call.fault, call.processed) == (0, "timeout", False)
    assert fake.bot_messages(CHAT) == []


async def test_timeout_surfaces_as_ptb_timed_out(fake: BotApiServer) -> None:
    """A PTB Bot with a short read timeout gets TimedOut, and the send did not happen."""
    request = HTTPXRequest(read_timeout=0.2)
    async with Bot(fake.token, base_url=f"{fake.url}/bot", request=request) as bot:
        fake.inject("sendMessage", Timeout())
        with pytest.raises(TimedOut):
            await bot.send_message(CHAT, "x")
        assert (await bot.send_message(CHAT, "again")).text == "again"
    await settled(fake)
    assert [c.fault for c in fake.calls_to("sendMessage")] == ["timeout", None]
    assert [m.text for m in fake.bot_messages(CHAT)] == ["again"]


async def test_timeout_with_hold_hangs_up_after_hold(
    fake: BotApiServer, http: aiohttp.ClientSession
) -> None:
    """Timeout(hold=s) closes the connection unanswered after s seconds, unprocessed."""
    fake.inject("sendMessage", Timeout(hold=0.15))
    started = time.monotonic()
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await send(http, fake)
    assert 0.15 <= time.monotonic() - started < 1.0
    (call,) = fake.calls
    assert (call.status, call.fault, call.processed) == (0, "timeout", False)
    assert fake.bot_messages(CHAT) == []


@pytest.mark.parametrize(
    ("fault", "seen"),
    [
        (Drop(), aiohttp.ServerDisconnectedError),
        (Drop(reset=True), aiohttp.ClientOSError),  # ECONNRESET
    ],
    ids=["fin", "rst"],
)
async def test_dropped_connection_gives_no_response(
    fake: BotApiServer, http: aiohttp.ClientSession, fault: Drop, seen: type[Exception]
) -> None:
    """Drop() closes the TCP connection without a response, before processing."""
    fake.inject("sendMessage", fault)
    with pytest.raises(seen):
        await send(http, fake)
    (call,) = fake.calls
    assert (call.status, call.fault, call.processed) == (0, "dropped", False)
    assert fake.bot_messages(CHAT) == []
    assert (await send(http, fake, "next"))[0] == 200  # a new connection works


async def test_dropped_connection_is_a_ptb_network_error(fake: BotApiServer, bot: Bot) -> None:
    """PTB (httpx) reports a dropped connection as NetworkError, not as an API error."""
    fake.inject("sendMessage", Drop())
    with pytest.raises(NetworkError) as info:
        await bot.send_message(CHAT, "x")
    assert not isinstance(info.value, TimedOut)
    assert fake.bot_messages(CHAT) == []


async def test_response_lost_processes_then_drops(
    fake: BotApiServer, http: aiohttp.ClientSession
) -> None:
    """ResponseLost(): the message is sent but the client sees a disconnect; a retry dupes it."""
    fake.inject("sendMessage", ResponseLost())
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await send(http, fake, "once")
    (call,) = fake.calls
    assert (call.status, call.fault, call.processed) == (0, "response_lost", True)
    assert call.result["text"] == "once"
    assert (await send(http, fake, "once"))[0] == 200  # the client's naive retry
    assert [m.text for m in fake.bot_messages(CHAT)] == ["once", "once"]
