"""Webhook mode: the real bot takes updates the fake Bot API POSTs to it, answers each only once
it is handled, and serves /healthz and /readyz (and /healthz etc. in polling mode on request)."""

from __future__ import annotations

import importlib
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from random import Random
from typing import Any

import aiohttp
import pytest
from pydantic import SecretStr, ValidationError
from telegram import Update
from telegram.ext import SimpleUpdateProcessor

from bot.app import RunningBot, running_bot
from bot.application import build_application, initialized
from bot.config import describe_settings_error
from bot.core.model import Ask
from bot.playground.botapi import BotApiServer, StoredMessage
from bot.runners.webhook import SECRET_HEADER, webhook
from tests.e2e.conftest import ALICE, StartHooked, alice_private
from tests.e2e.helpers.process import bot_env, run_bot
from tests.e2e.helpers.webhook import HOOK_PATH, SECRET, SECRET_ONLY, plain_settings
from tests.fakes.clock import FakeClock


async def _http(
    method: str, url: str, *, body: bytes = b"", headers: dict[str, str] | None = None
) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, url, data=body, headers=headers) as answer,
    ):
        return answer.status, await answer.text()


def _start_update(update_id: int) -> bytes:
    chat = {"id": ALICE.id, "type": "private", "first_name": ALICE.first_name}
    message = {
        "message_id": 1,
        "date": 1_700_000_000,
        "chat": chat,
        "from": ALICE.to_dict(),
        "text": "/start",
        "entities": [{"type": "bot_command", "offset": 0, "length": 6}],
    }
    return json.dumps({"update_id": update_id, "message": message}).encode()


async def _quiz(fake: BotApiServer) -> StoredMessage:
    since = len(fake.calls)
    fake.send_message(alice_private(), ALICE, "/quiz")
    call = await fake.wait_for_call("sendMessage", since=since)
    return fake.message(ALICE.id, call.result["message_id"])


async def _ask(running: RunningBot, question: StoredMessage) -> Ask:
    ask = await running.store.get_ask(int(question.callback_data[0].split(":")[1]))
    assert ask is not None
    return ask


async def test_start_sets_the_webhook_and_stop_leaves_it_set(
    fake: BotApiServer, start_hooked: StartHooked, base: str
) -> None:
    """setWebhook gets the URL, secret, allowed updates, max_connections and keeps pending
    updates; the bot never polls, and stopping does not delete the webhook."""
    async with start_hooked():
        (call,) = fake.calls_to("setWebhook")
    assert call.params["url"] == f"{base}{HOOK_PATH}"
    assert call.params["secret_token"] == SECRET
    assert call.params["allowed_updates"] == list(Update.ALL_TYPES)
    assert call.params["max_connections"] == 7
    assert call.params["drop_pending_updates"] is False
    assert fake.calls_to("getUpdates") == []
    assert fake.calls_to("deleteWebhook") == []
    assert fake.webhook.url == f"{base}{HOOK_PATH}"


async def test_a_private_quiz_works_over_the_webhook(
    fake: BotApiServer, hooked: RunningBot
) -> None:
    """/start, /quiz and a right press all arrive by webhook and are answered as in polling."""
    fake.send_message(alice_private(), ALICE, "/start")
    greeting = await fake.wait_for_call("sendMessage")
    assert "/quiz" in greeting.params["text"]
    question = await _quiz(fake)
    ask = await _ask(hooked, question)
    right = question.callback_data[ask.right_position]
    since = len(fake.calls)
    query = fake.press_button(alice_private(), ALICE, question.message_id, right)
    assert (await fake.callback_answer(query)).text == "✅ Correct"
    reply = await fake.wait_for_call("sendMessage", since=since)
    assert reply.params["text"].startswith("✅ <b>Correct!</b>")
    await fake.idle()
    assert [a.status for a in fake.webhook.attempts] == [200, 200, 200]
    assert fake.webhook.pending == 0


async def test_a_wrong_or_missing_secret_is_refused_and_nothing_is_processed(
    fake: BotApiServer, hooked: RunningBot, base: str
) -> None:
    """Without the right X-Telegram-Bot-Api-Secret-Token an update gets 401 and no answer."""
    url = f"{base}{HOOK_PATH}"
    json_type = {"Content-Type": "application/json"}
    wrong = json_type | {SECRET_HEADER: SECRET[:-1] + "x"}
    assert (await _http("POST", url, body=_start_update(900), headers=wrong))[0] == 401
    assert (await _http("POST", url, body=_start_update(901), headers=json_type))[0] == 401
    await fake.idle()
    assert fake.calls_to("sendMessage") == []
    right = json_type | {SECRET_HEADER: SECRET}
    assert (await _http("POST", url, body=_start_update(902), headers=right))[0] == 200
    await fake.wait_for_call("sendMessage")  # owed before the 200, sent by the outbox
    await fake.idle()
    assert len(fake.calls_to("sendMessage")) == 1


@pytest.mark.parametrize(
    "body", [b"not json", b"[1, 2]", b'{"message": {}}', b'{"update_id": "7"}', b""]
)
async def test_a_body_that_is_no_update_gets_400(
    fake: BotApiServer, hooked: RunningBot, base: str, body: bytes
) -> None:
    """Non-JSON or non-update bodies get 400 Bad Request and nothing is processed."""
    headers = {"Content-Type": "application/json", SECRET_HEADER: SECRET}
    status, _ = await _http("POST", f"{base}{HOOK_PATH}", body=body, headers=headers)
    assert status == 400
    await fake.idle()
    assert fake.calls_to("sendMessage") == []


async def test_only_post_on_the_webhook_path_takes_updates(hooked: RunningBot, base: str) -> None:
    """GET on the webhook path is 405, and other paths are 404."""
    assert (await _http("GET", f"{base}{HOOK_PATH}"))[0] == 405
    status, _ = await _http("POST", f"{base}/other", body=_start_update(5), headers=SECRET_ONLY)
    assert status == 404


async def test_a_storage_failure_answers_500_and_the_redelivery_is_recorded_once(
    fake: BotApiServer, hooked: RunningBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A press whose storage fails gets 5xx; the fake delivers it again and it counts once."""
    question = await _quiz(fake)
    ask = await _ask(hooked, question)
    await fake.idle()
    real_get_ask = hooked.store.get_ask
    failures: list[int] = []

    async def failing_once(ask_id: int) -> Ask | None:
        if ask_id == ask.id and not failures:
            failures.append(ask_id)
            raise sqlite3.OperationalError("disk I/O error")
        return await real_get_ask(ask_id)

    monkeypatch.setattr(hooked.store, "get_ask", failing_once)
    right = question.callback_data[ask.right_position]
    query = fake.press_button(alice_private(), ALICE, question.message_id, right)
    assert (await fake.callback_answer(query)).text == "✅ Correct"
    await fake.idle()
    press_id = fake.webhook.attempts[-1].update_id
    statuses = [a.status for a in fake.webhook.attempts if a.update_id == press_id]
    assert statuses[0] is not None
    assert statuses[0] >= 500
    assert statuses[-1] == 200
    assert len(fake.calls_to("answerCallbackQuery")) == 1
    assert len([c for c in fake.calls_to("sendMessage") if "Correct!" in c.params["text"]]) == 1
    answer = await hooked.store.get_answer(ask.id, ALICE.id)
    assert answer is not None
    assert answer.position == ask.right_position


async def test_updates_sent_while_the_bot_is_down_arrive_once_it_is_back(
    fake: BotApiServer, start_hooked: StartHooked
) -> None:
    """Deliveries to a stopped bot fail and are retried; the restarted bot gets them in order."""
    async with start_hooked():
        pass
    fake.send_message(alice_private(), ALICE, "/start")
    await fake.wait_until(lambda: any(a.error for a in fake.webhook.attempts), what="a refusal")
    async with start_hooked():
        await fake.wait_for_call("sendMessage")
        await fake.idle()
    assert fake.webhook.pending == 0
    assert fake.webhook.delivered() == [1]


async def test_healthz_and_readyz_follow_the_webhook(
    fake: BotApiServer, hooked: RunningBot, base: str
) -> None:
    """/healthz is 200 while up; /readyz is 503 while the webhook is not ours, then 200."""
    assert await _http("GET", f"{base}/healthz") == (200, "ok\n")
    await hooked.app.bot.delete_webhook()
    assert await _http("GET", f"{base}/readyz") == (503, "not ready: webhook not set\n")
    await hooked.app.bot.set_webhook("http://127.0.0.1:1/elsewhere")
    status, text = await _http("GET", f"{base}/readyz")
    assert (status, text) == (503, "not ready: webhook set to another URL\n")
    await hooked.app.bot.set_webhook(f"{base}{HOOK_PATH}", secret_token=SECRET)
    assert await _http("GET", f"{base}/readyz") == (200, "ready\n")
    checks = len(fake.calls_to("getWebhookInfo"))
    assert (await _http("GET", f"{base}/readyz"))[0] == 200
    assert len(fake.calls_to("getWebhookInfo")) == checks  # cached for a few seconds


@asynccontextmanager
async def _bare_webhook(
    fake: BotApiServer,
    tmp_path: Path,
    database_ready: Callable[[], Awaitable[bool]],
    **options: Any,
) -> AsyncIterator[str]:
    """The webhook runner alone, around an Application without handlers."""
    app, requests = build_application(plain_settings(fake, tmp_path), SimpleUpdateProcessor(8))
    async with (
        initialized(app, requests),
        webhook(
            app,
            url="http://127.0.0.1:1/hook",
            secret=SecretStr(SECRET),
            listen="127.0.0.1",
            port=0,
            max_connections=40,
            database_ready=database_ready,
            is_storage_failure=lambda error: isinstance(error, OSError | sqlite3.Error),
            **options,
        ) as bound,
    ):
        yield f"http://127.0.0.1:{bound}"


async def test_readyz_is_503_while_the_database_is_not_ready(
    fake: BotApiServer, tmp_path: Path
) -> None:
    """/readyz asks database_ready() on every probe: False or an error is 503, True is 200."""
    state: dict[str, bool | Exception] = {"ready": False}

    async def database_ready() -> bool:
        value = state["ready"]
        if isinstance(value, Exception):
            raise value
        return value

    async with _bare_webhook(fake, tmp_path, database_ready) as base:
        assert await _http("GET", f"{base}/readyz") == (503, "not ready: database unreachable\n")
        state["ready"] = True
        assert await _http("GET", f"{base}/readyz") == (200, "ready\n")
        state["ready"] = sqlite3.OperationalError("unable to open database file")
        assert (await _http("GET", f"{base}/readyz"))[0] == 503
        assert (await _http("GET", f"{base}/healthz"))[0] == 200


async def test_metrics_are_served_when_given(fake: BotApiServer, tmp_path: Path) -> None:
    """GET /metrics serves the given callable's body and content type (404 without one)."""

    async def ready() -> bool:
        return True

    content_type = "text/plain; version=0.0.4; charset=utf-8"

    def metrics() -> tuple[bytes, str]:
        return b"quizbot_up 1\n", content_type

    async with (
        _bare_webhook(fake, tmp_path, ready, metrics=metrics) as base,
        aiohttp.ClientSession() as session,
        session.get(f"{base}/metrics") as answer,
    ):
        assert answer.status == 200
        assert answer.headers["Content-Type"] == content_type
        assert await answer.read() == b"quizbot_up 1\n"
    async with _bare_webhook(fake, tmp_path, ready) as base:
        assert (await _http("GET", f"{base}/metrics"))[0] == 404


async def test_polling_serves_the_probes_on_the_http_port(
    fake: BotApiServer, tmp_path: Path, clock: FakeClock, port: int, base: str
) -> None:
    """With QUIZBOT_HTTP_PORT, a polling bot serves /healthz and /readyz but no webhook."""
    settings = plain_settings(fake, tmp_path, http_port=port, http_listen="127.0.0.1")
    async with running_bot(settings, clock=clock, poll_timeout=1, rng=Random(7)):
        await fake.wait_until(lambda: bool(fake.calls_to("getUpdates")), what="polling")
        assert await _http("GET", f"{base}/healthz") == (200, "ok\n")
        assert await _http("GET", f"{base}/readyz") == (200, "ready\n")
        update = _start_update(1)
        status, _ = await _http("POST", f"{base}{HOOK_PATH}", body=update, headers=SECRET_ONLY)
        assert status == 404
    assert fake.calls_to("setWebhook") == []


def test_a_webhook_url_without_a_secret_is_refused(fake: BotApiServer, tmp_path: Path) -> None:
    """QUIZBOT_WEBHOOK_URL without QUIZBOT_WEBHOOK_SECRET stops the start with a clear line."""
    with pytest.raises(ValidationError) as error:
        plain_settings(fake, tmp_path, webhook_url="https://bot.example.com/telegram")
    assert describe_settings_error(error.value).startswith(
        "QUIZBOT_WEBHOOK_SECRET: required when QUIZBOT_WEBHOOK_URL is set"
    )


async def test_bad_webhook_settings_stop_python_m_bot_without_echoing_the_secret(
    tmp_path: Path,
) -> None:
    """`python -m bot` exits 2 naming the variable; a bad secret is never printed."""
    env = bot_env(
        TELEGRAM_BOT_TOKEN="1:secret-token-value",
        QUIZBOT_WEBHOOK_URL="https://bot.example.com/telegram",
    )
    code, _, err = await run_bot(cwd=tmp_path, env=env)
    assert code == 2
    assert "QUIZBOT_WEBHOOK_SECRET: required when QUIZBOT_WEBHOOK_URL is set" in err
    code, _, err = await run_bot(cwd=tmp_path, env=env | {"QUIZBOT_WEBHOOK_SECRET": "not+allowed"})
    assert code == 2
    assert "QUIZBOT_WEBHOOK_SECRET: must be 1-256 characters of A-Z, a-z, 0-9, _ and -" in err
    assert "not+allowed" not in err
    assert "Traceback" not in err


async def test_the_secret_stays_out_of_the_logs_even_at_debug(
    start_hooked: StartHooked, caplog: pytest.LogCaptureFixture
) -> None:
    """PTB logs setWebhook's parameters at DEBUG; the secret is redacted from them."""
    caplog.set_level(logging.DEBUG)
    async with start_hooked():
        pass
    assert "setWebhook" in caplog.text
    assert "<webhook secret>" in caplog.text
    assert SECRET not in caplog.text


async def test_a_reply_stuck_behind_a_send_window_does_not_hold_the_delivery_open(
    fake: BotApiServer, hooked: RunningBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An update still sending after the time limit is answered 200 (no redelivery), and its
    reply still goes out once."""
    # The package re-exports the function `webhook` under the module's name.
    monkeypatch.setattr(
        importlib.import_module("bot.runners.webhook"), "ANSWER_WITHIN_SECONDS", 0.05
    )
    fake.latency = 0.3  # every reply takes longer than the limit
    fake.send_message(alice_private(), ALICE, "/help")
    await fake.wait_for_call("sendMessage")
    await fake.idle()
    assert [a.status for a in fake.webhook.attempts] == [200]
    assert len(fake.calls_to("sendMessage")) == 1
