"""Self-tests of the fake's webhook mode: delivery order per key, parallelism across keys,
retries, the secret header, round-robin over replicas and Telegram's checks of setWebhook."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections import deque
from collections.abc import AsyncIterator, Callable

import pytest
from telegram import Bot
from telegram.error import BadRequest, Conflict

from bot.playground.botapi import BotApiServer, FakeChat, FakeUser
from bot.playground.botapi.http import HttpRequest, HttpResponse, HttpServer
from bot.playground.botapi.webhook import SECRET_HEADER, delivery_key

ALICE = FakeUser(1001, "Alice", username="alice")
BOB = FakeUser(1002, "Bob")
CAROL = FakeUser(1003, "Carol")
GROUP = FakeChat.group(-500, "Quiz night")
SECRET = "s3cret_-TOKEN"


class Receiver:
    """A webhook endpoint that records what it gets and answers as scripted."""

    def __init__(self) -> None:
        self.requests: list[HttpRequest] = []
        self.statuses: deque[int] = deque()  # answers to give, in order; then 200
        self.held: asyncio.Event | None = None  # set: requests wait for it before answering
        self.active = 0
        self.most_active = 0
        self._server = HttpServer(self._handle)

    @property
    def url(self) -> str:
        return f"{self._server.url}/hook"

    @property
    def update_ids(self) -> list[int]:
        return [json.loads(r.body)["update_id"] for r in self.requests]

    async def _handle(self, request: HttpRequest) -> HttpResponse:
        self.active += 1
        self.most_active = max(self.most_active, self.active)
        try:
            self.requests.append(request)
            if self.held is not None:
                await self.held.wait()
            status = self.statuses.popleft() if self.statuses else 200
            return HttpResponse(status, b"", "text/plain")
        finally:
            self.active -= 1

    async def start(self) -> None:
        await self._server.start()

    async def stop(self) -> None:
        await self._server.stop()


@pytest.fixture
async def receiver() -> AsyncIterator[Receiver]:
    endpoint = Receiver()
    await endpoint.start()
    yield endpoint
    await endpoint.stop()


@pytest.fixture
async def second_receiver() -> AsyncIterator[Receiver]:
    endpoint = Receiver()
    await endpoint.start()
    yield endpoint
    await endpoint.stop()


@pytest.fixture(autouse=True)
def fast_retries(fake: BotApiServer) -> None:
    fake.webhook.retry_delay = 0.01


async def until(predicate: Callable[[], bool], timeout: float = 3.0) -> None:  # noqa: ASYNC109
    """Wait for a condition outside the fake (the receiver's side)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("condition not reached")
        await asyncio.sleep(0.005)


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def private(user: FakeUser) -> FakeChat:
    return FakeChat.private(user)


async def test_updates_are_posted_as_json_with_the_secret_header(
    fake: BotApiServer, bot: Bot, receiver: Receiver
) -> None:
    """A set webhook gets each update POSTed as JSON with X-Telegram-Bot-Api-Secret-Token."""
    assert await bot.set_webhook(receiver.url, secret_token=SECRET)
    sent = fake.send_message(private(ALICE), ALICE, "/start")
    await until(lambda: fake.webhook.delivered() == [1])
    (request,) = receiver.requests
    assert (request.method, request.path) == ("POST", "/hook")
    assert request.headers[SECRET_HEADER.lower()] == SECRET
    assert request.content_type == "application/json"
    assert json.loads(request.body) == {"update_id": 1, "message": sent}
    info = await bot.get_webhook_info()
    assert (info.url, info.pending_update_count) == (receiver.url, 0)


async def test_get_updates_conflicts_while_a_webhook_is_set(fake: BotApiServer, bot: Bot) -> None:
    """getUpdates is 409 Conflict while a webhook is set, and works again once it is deleted."""
    await bot.set_webhook(f"http://127.0.0.1:{closed_port()}/hook")
    with pytest.raises(Conflict, match="can't use getUpdates method while webhook is active"):
        await bot.get_updates()
    assert fake.calls_to("getUpdates")[0].status == 409
    await bot.delete_webhook()
    assert await bot.get_updates() == ()


async def test_one_chat_gets_one_delivery_at_a_time_in_order(
    fake: BotApiServer, bot: Bot, receiver: Receiver
) -> None:
    """Updates of one chat are delivered in order, the next only once the previous is answered."""
    receiver.held = asyncio.Event()
    await bot.set_webhook(receiver.url, secret_token=SECRET)
    for text in ("one", "two", "three"):
        fake.send_message(private(ALICE), ALICE, text)
    await until(lambda: len(receiver.requests) == 1)
    await asyncio.sleep(0.05)
    assert len(receiver.requests) == 1
    assert (await bot.get_webhook_info()).pending_update_count == 3
    receiver.held.set()
    await until(lambda: fake.webhook.delivered() == [1, 2, 3])
    assert receiver.update_ids == [1, 2, 3]
    assert receiver.most_active == 1


async def test_a_callback_query_waits_behind_the_pressing_users_earlier_updates(
    fake: BotApiServer, bot: Bot, receiver: Receiver
) -> None:
    """Callback queries queue by the presser's id: in a group, presses of two users overlap."""
    receiver.held = asyncio.Event()
    await bot.set_webhook(receiver.url, secret_token=SECRET)
    message = fake.send_message(GROUP, ALICE, "/quiz")
    fake.press_button(GROUP, ALICE, message["message_id"], "a")
    fake.press_button(GROUP, BOB, message["message_id"], "b")
    fake.press_button(GROUP, ALICE, message["message_id"], "c")
    await until(lambda: len(receiver.requests) == 3)  # the group's, Alice's and Bob's first
    await asyncio.sleep(0.05)
    assert len(receiver.requests) == 3  # Alice's second press waits behind her first
    assert sorted(receiver.update_ids) == [1, 2, 3]
    receiver.held.set()
    await until(lambda: len(fake.webhook.delivered()) == 4)
    assert receiver.update_ids[-1] == 4


async def test_different_keys_are_delivered_in_parallel_up_to_max_connections(
    fake: BotApiServer, bot: Bot, receiver: Receiver
) -> None:
    """Different chats are delivered concurrently, but never more at once than max_connections."""
    receiver.held = asyncio.Event()
    await bot.set_webhook(receiver.url, secret_token=SECRET, max_connections=2)
    for user in (ALICE, BOB, CAROL):
        fake.send_message(private(user), user, "hi")
    await until(lambda: receiver.active == 2)
    await asyncio.sleep(0.05)
    assert len(receiver.requests) == 2
    receiver.held.set()
    await until(lambda: len(fake.webhook.delivered()) == 3)
    assert receiver.most_active == 2
    assert (await bot.get_webhook_info()).max_connections == 2


async def test_a_5xx_is_retried_before_the_next_update_of_its_chat(
    fake: BotApiServer, bot: Bot, receiver: Receiver
) -> None:
    """A non-2xx answer redelivers the same update (after the backoff) before the next one."""
    receiver.statuses.extend([500, 502])
    await bot.set_webhook(receiver.url, secret_token=SECRET)
    fake.send_message(private(ALICE), ALICE, "one")
    fake.send_message(private(ALICE), ALICE, "two")
    await until(lambda: fake.webhook.delivered() == [1, 2])
    assert receiver.update_ids == [1, 1, 1, 2]
    statuses = [a.status for a in fake.webhook.attempts]
    assert statuses == [500, 502, 200, 200]
    info = await bot.get_webhook_info()
    assert info.last_error_message == "Wrong response from the webhook: 502"
    assert info.last_error_date is not None


async def test_a_refused_connection_is_retried_until_the_bot_answers(
    fake: BotApiServer, bot: Bot, receiver: Receiver
) -> None:
    """Connection refused counts as a failed delivery: the update is kept and retried."""
    await bot.set_webhook(f"http://127.0.0.1:{closed_port()}/hook", secret_token=SECRET)
    fake.send_message(private(ALICE), ALICE, "hello")
    await until(lambda: len(fake.webhook.attempts) >= 3)
    assert all(a.status is None and a.error for a in fake.webhook.attempts if a.finished)
    assert (await bot.get_webhook_info()).pending_update_count == 1
    fake.webhook.replicas = [receiver.url]  # the bot is up now, behind the load balancer
    await until(lambda: fake.webhook.delivered() == [1])
    assert receiver.update_ids == [1]


async def test_replicas_take_deliveries_round_robin(
    fake: BotApiServer, bot: Bot, receiver: Receiver, second_receiver: Receiver
) -> None:
    """With replicas set, successive deliveries alternate between their URLs."""
    await bot.set_webhook(receiver.url, secret_token=SECRET)
    fake.webhook.replicas = [receiver.url, second_receiver.url]
    for count in range(1, 5):
        fake.send_message(private(ALICE), ALICE, f"message {count}")
        await until(lambda count=count: len(fake.webhook.delivered()) == count)  # type: ignore[misc]
    assert receiver.update_ids == [1, 3]
    assert second_receiver.update_ids == [2, 4]


async def test_delete_webhook_hands_undelivered_updates_back_to_get_updates(
    fake: BotApiServer, bot: Bot
) -> None:
    """deleteWebhook stops delivery; what was not delivered is then fetched with getUpdates."""
    await bot.set_webhook(f"http://127.0.0.1:{closed_port()}/hook", secret_token=SECRET)
    fake.send_message(private(ALICE), ALICE, "one")
    fake.send_message(private(BOB), BOB, "two")
    await until(lambda: len(fake.webhook.attempts) >= 2)
    assert await bot.delete_webhook()
    assert (await bot.get_webhook_info()).url == ""
    updates = await bot.get_updates()
    assert [u.update_id for u in updates] == [1, 2]


async def test_updates_waiting_for_get_updates_go_to_a_new_webhook(
    fake: BotApiServer, bot: Bot, receiver: Receiver
) -> None:
    """Setting a webhook delivers what was pending; drop_pending_updates discards it instead."""
    fake.send_message(private(ALICE), ALICE, "before")
    await bot.set_webhook(receiver.url, secret_token=SECRET)
    await until(lambda: fake.webhook.delivered() == [1])
    await bot.delete_webhook()
    fake.send_message(private(ALICE), ALICE, "dropped")
    await bot.set_webhook(receiver.url, secret_token=SECRET, drop_pending_updates=True)
    await asyncio.sleep(0.05)
    assert receiver.update_ids == [1]


async def test_allowed_updates_filter_what_is_delivered(
    fake: BotApiServer, bot: Bot, receiver: Receiver
) -> None:
    """allowed_updates of setWebhook drop other update kinds and show in getWebhookInfo."""
    await bot.set_webhook(receiver.url, secret_token=SECRET, allowed_updates=["callback_query"])
    fake.send_message(private(ALICE), ALICE, "ignored")
    fake.press_button(private(ALICE), ALICE, 1, "a")
    await until(lambda: fake.webhook.delivered() == [2])
    assert [u["update_id"] for u in fake.dropped_updates] == [1]
    assert (await bot.get_webhook_info()).allowed_updates == ("callback_query",)


@pytest.mark.parametrize(
    ("url", "options", "description"),
    [
        ("http://example.com/hook", {}, "An HTTPS URL must be provided for webhook"),
        ("https://example.com:9000/hook", {}, "only on ports 80, 88, 443 or 8443"),
        ("https://example.com/hook", {"secret_token": "no spaces"}, "unallowed characters"),
        ("https://example.com/hook", {"secret_token": "x" * 257}, "secret token is too long"),
        ("https://example.com/hook", {"max_connections": 0}, "between 1 and 100"),
        ("https://example.com/hook", {"max_connections": 101}, "between 1 and 100"),
    ],
)
async def test_set_webhook_is_checked_like_telegram(
    fake: BotApiServer, bot: Bot, url: str, options: dict[str, object], description: str
) -> None:
    """setWebhook refuses plain HTTP (outside 127.0.0.1), other ports, bad secrets and limits."""
    with pytest.raises(BadRequest):
        await bot.set_webhook(url, **options)  # type: ignore[arg-type]
    (call,) = fake.calls_to("setWebhook")
    assert call.status == 400
    assert call.description is not None
    assert description in call.description
    assert not fake.webhook.active


async def test_local_http_can_be_refused_too(fake: BotApiServer, bot: Bot) -> None:
    """With allow_local_http off, even 127.0.0.1 needs HTTPS, as on Telegram's servers."""
    fake.allow_local_http = False
    with pytest.raises(BadRequest, match=r"(?i)https url must be provided"):
        await bot.set_webhook("http://127.0.0.1:8080/hook")
    assert await bot.set_webhook("https://example.com:8443/hook", secret_token=SECRET)
    assert (await bot.get_webhook_info()).url == "https://example.com:8443/hook"


def test_delivery_keys_are_the_presser_for_queries_and_the_chat_for_the_rest() -> None:
    """A callback query is keyed by its presser, a message or member change by its chat."""
    query = {"update_id": 1, "callback_query": {"from": {"id": 7}, "message": {"chat": {"id": -5}}}}
    message = {"update_id": 2, "message": {"from": {"id": 7}, "chat": {"id": -5}}}
    member = {"update_id": 3, "my_chat_member": {"from": {"id": 7}, "chat": {"id": -9}}}
    assert [delivery_key(u) for u in (query, message, member)] == [7, -5, -9]
