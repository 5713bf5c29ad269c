"""Webhook mode of the fake Bot API: setWebhook, deleteWebhook, getWebhookInfo, and delivery.

While a webhook is set, every update is POSTed to its URL as JSON with the
``X-Telegram-Bot-Api-Secret-Token`` header, the way Telegram does it: one ordered queue per key
(a callback query's is the pressing user's id, any other update's its chat id), at most one
delivery in flight per key, different keys in parallel up to ``max_connections``. A non-2xx
answer or a connection error retries the same update, after :attr:`WebhookDelivery.retry_delay`,
before the next one of its key. :attr:`WebhookDelivery.replicas` spreads deliveries round-robin
over several URLs, like a load balancer in front of several bots. getUpdates meanwhile fails
with 409 Conflict; deleteWebhook hands the undelivered updates back to getUpdates.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import aiohttp

from .models import ApiError, JsonDict
from .state import _DEFAULT_EXCLUDED_UPDATES, BotApiState, bad_request

__all__ = ["SECRET_HEADER", "BotApiWebhook", "DeliveryAttempt", "WebhookDelivery", "delivery_key"]

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
WEBHOOK_CONFLICT = (
    "Conflict: can't use getUpdates method while webhook is active; "
    "use deleteWebhook to delete the webhook first"
)
_SECRET = re.compile(r"[A-Za-z0-9_-]+")
_LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
_PORTS = frozenset({80, 88, 443, 8443})
_WRONG_PORT = "Webhook can be set up only on ports 80, 88, 443 or 8443"
# Updates keyed by the user who caused them, not by a chat.
_USER_KEYED = frozenset(
    {"callback_query", "inline_query", "chosen_inline_result", "shipping_query"}
    | {"pre_checkout_query", "poll_answer"}
)


def delivery_key(update: JsonDict) -> int:
    """The queue an update waits in: the presser's id for a callback query, else its chat."""
    kind = next((k for k in update if k != "update_id"), "")
    body = update.get(kind)
    if not isinstance(body, dict):
        return 0
    user = body.get("from") or body.get("user") or {}
    if kind in _USER_KEYED and "id" in user:
        return int(user["id"])
    chat = body.get("chat") or (body.get("message") or {}).get("chat") or {}
    if "id" in chat:
        return int(chat["id"])
    return int(user.get("id", 0))


@dataclass(slots=True)
class DeliveryAttempt:
    """One POST of an update to the webhook (a retry is a new attempt)."""

    update_id: int
    key: int
    url: str
    started: float
    status: int | None = None  # the HTTP status; None: no answer (see error)
    error: str | None = None
    finished: float | None = None

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300

    def problem(self) -> str:
        """As getWebhookInfo's last_error_message words it."""
        if self.status is not None:
            return f"Wrong response from the webhook: {self.status}"
        return self.error or "Connection failed"


class WebhookDelivery:
    """The queues and the delivering tasks of one fake Bot API (inactive while ``url`` is None)."""

    def __init__(self, on_change: Callable[[], None]) -> None:
        self.url: str | None = None
        self.secret: str | None = None
        self.max_connections = 40
        self.replicas: list[str] = []  # when set: deliveries round-robin over these URLs
        self.retry_delay = 0.02  # seconds before a failed delivery is tried again
        self.timeout = 10.0  # seconds a delivery may take before it counts as failed
        self.attempts: list[DeliveryAttempt] = []
        self.last_error: tuple[int, str] | None = None  # (unix time, message)
        # Answers lost on their way back (a proxy that dropped them): the bot handled the
        # update, the fake sees a connection error and delivers the same update again.
        self.lose_answers = 0
        self._on_change = on_change
        self._queues: dict[int, deque[JsonDict]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._slots = asyncio.Semaphore(self.max_connections)
        self._session: aiohttp.ClientSession | None = None
        self._turn = 0

    @property
    def active(self) -> bool:
        return self.url is not None

    def forget_old(self, keep: int) -> None:
        """Keep only the newest `keep` delivery attempts."""
        del self.attempts[:-keep]

    @property
    def pending(self) -> int:
        """Updates not yet delivered (including those in flight)."""
        return sum(len(queue) for queue in self._queues.values())

    @property
    def in_flight(self) -> int:
        return sum(1 for a in self.attempts if a.finished is None)

    def delivered(self) -> list[int]:
        """The update_ids answered with a 2xx, in the order they were."""
        done = sorted((a for a in self.attempts if a.ok), key=lambda a: a.finished or 0.0)
        return [a.update_id for a in done]

    def configure(self, url: str, secret: str | None, max_connections: int) -> None:
        self.url, self.secret = url, secret
        if max_connections != self.max_connections:
            self.max_connections = max_connections
            self._slots = asyncio.Semaphore(max_connections)
        if self._session is None:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=self.timeout))

    def enqueue(self, update: JsonDict) -> None:
        key = delivery_key(update)
        self._queues.setdefault(key, deque()).append(update)
        if key not in self._workers:
            self._workers[key] = asyncio.ensure_future(self._deliver_all(key))

    async def stop(self) -> list[JsonDict]:
        """Stop delivering; the undelivered updates (in flight included), oldest first."""
        self.url = None
        workers = list(self._workers.values())
        for worker in workers:
            worker.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
        self._workers.clear()
        left = sorted(
            (u for queue in self._queues.values() for u in queue), key=lambda u: u["update_id"]
        )
        self._queues.clear()
        session, self._session = self._session, None
        if session is not None:
            await session.close()
        return left

    def _target(self) -> str:
        if not self.replicas:
            assert self.url is not None
            return self.url
        self._turn += 1
        return self.replicas[(self._turn - 1) % len(self.replicas)]

    async def _deliver_all(self, key: int) -> None:
        queue = self._queues[key]
        try:
            while queue:
                if not await self._attempt(key, queue[0]):
                    await asyncio.sleep(self.retry_delay)  # then the same update again
                    continue
                queue.popleft()
                self._on_change()
        finally:
            if self._workers.get(key) is asyncio.current_task():
                del self._workers[key]
                if not queue:
                    self._queues.pop(key, None)

    async def _attempt(self, key: int, update: JsonDict) -> bool:
        async with self._slots:
            attempt = DeliveryAttempt(update["update_id"], key, self._target(), time.monotonic())
            self.attempts.append(attempt)
            self._on_change()
            headers = {"Content-Type": "application/json"}
            if self.secret is not None:
                headers[SECRET_HEADER] = self.secret
            assert self._session is not None
            try:
                body = json.dumps(update).encode()
                async with self._session.post(attempt.url, data=body, headers=headers) as answer:
                    await answer.read()
                    attempt.status = answer.status
                if self.lose_answers > 0:
                    self.lose_answers -= 1
                    attempt.status = None
                    attempt.error = f"the answer ({answer.status}) was lost on its way back"
            except (aiohttp.ClientError, TimeoutError, OSError) as exc:
                attempt.error = str(exc) or type(exc).__name__
            finally:
                attempt.finished = time.monotonic()
        if not attempt.ok:
            self.last_error = (int(time.time()), attempt.problem())
        self._on_change()
        return attempt.ok


class BotApiWebhook(BotApiState):
    """Adds setWebhook/deleteWebhook/getWebhookInfo and routes updates to the webhook."""

    def __init__(self, *, token: str, bot_id: int, bot_username: str) -> None:
        super().__init__(token=token, bot_id=bot_id, bot_username=bot_username)
        self.webhook = WebhookDelivery(self._webhook_changed)
        # Accept plain-HTTP webhook URLs and any port on 127.0.0.1 (as a local Bot API server
        # does); False: only Telegram's https and ports 80, 88, 443, 8443.
        self.allow_local_http = True

    def _webhook_changed(self) -> None:
        self._notify()

    def push_update(self, update: JsonDict) -> int:
        if not self.webhook.active:
            return super().push_update(update)
        update_id = self._next_update_id
        self._next_update_id += 1
        full = {"update_id": update_id, **{k: v for k, v in update.items() if k != "update_id"}}
        kind = next((k for k in full if k != "update_id"), "")
        allowed = self._allowed_updates
        if kind in _DEFAULT_EXCLUDED_UPDATES if allowed is None else kind not in allowed:
            self.dropped_updates.append(full)
        else:
            self.webhook.enqueue(full)
        self._notify()
        return update_id

    async def _get_updates(self, params: JsonDict) -> list[JsonDict]:
        if self.webhook.active:
            raise ApiError(409, WEBHOOK_CONFLICT)
        return await super()._get_updates(params)

    async def _set_webhook(self, params: JsonDict) -> bool:
        url = str(params.get("url") or "")
        if not url:
            return await self._delete_webhook(params)
        parts = urlsplit(url)
        local = self.allow_local_http and parts.hostname in _LOCAL_HOSTS
        if parts.scheme != "https" and not (local and parts.scheme == "http"):
            raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
        if not local and (parts.port or 443) not in _PORTS:
            raise bad_request(f"bad webhook: {_WRONG_PORT}")
        secret = params.get("secret_token")
        if secret is not None:
            secret = str(secret)
            if len(secret) > 256:
                raise bad_request("secret token is too long")
            if not _SECRET.fullmatch(secret):
                raise bad_request("secret token contains unallowed characters")
        max_connections = _int(params.get("max_connections"), 40)
        if not 1 <= max_connections <= 100:
            raise bad_request("max_connections must be between 1 and 100")
        if isinstance(allowed := params.get("allowed_updates"), list):
            self._allowed_updates = {str(kind) for kind in allowed} or None
        if params.get("drop_pending_updates") is True:
            self._updates.clear()
        self.webhook.configure(url, secret or None, max_connections)
        waiting, self._updates = self._updates, []
        for update in waiting:
            self.webhook.enqueue(update)
        self._notify()
        return True

    async def _delete_webhook(self, params: JsonDict) -> bool:
        left = await self.webhook.stop()
        self._updates = sorted([*self._updates, *left], key=lambda u: u["update_id"])
        if params.get("drop_pending_updates") is True:
            self._updates.clear()
        self._notify()
        return True

    async def _get_webhook_info(self, params: JsonDict) -> JsonDict:
        if not self.webhook.active:
            pending = len(self._updates)
            return {"url": "", "has_custom_certificate": False, "pending_update_count": pending}
        info: JsonDict = {
            "url": self.webhook.url,
            "has_custom_certificate": False,
            "pending_update_count": self.webhook.pending,
            "max_connections": self.webhook.max_connections,
            "ip_address": "127.0.0.1",
        }
        if self._allowed_updates is not None:
            info["allowed_updates"] = sorted(self._allowed_updates)
        if self.webhook.last_error is not None:
            info["last_error_date"], info["last_error_message"] = self.webhook.last_error
        return info


def _int(value: Any, default: int) -> int:
    if value is None or value == "":
        return default
    try:
        return int(value)
    except (TypeError, ValueError):
        raise bad_request("invalid max_connections specified") from None
