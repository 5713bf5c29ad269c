"""A fake Telegram Bot API server for end-to-end tests and benchmarks.

Point PTB at it with ``ApplicationBuilder().token(fake.token).base_url(f"{fake.url}/bot")``;
requests arrive as ``POST /bot<token>/<method>``. Script users with :meth:`send_message` and
:meth:`press_button`, then assert on :attr:`calls`, :meth:`chat_messages` and friends.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any, Self
from urllib.parse import unquote

from .http import HttpRequest, HttpResponse, HttpServer, decode_params
from .methods import STRING_FIELDS, BotApiMethods
from .models import (
    ApiCall,
    ApiError,
    CallbackAnswer,
    FakeChat,
    FakeUser,
    JsonDict,
    MemberStatus,
    member_dict,
)
from .ratelimit import RateLimits, is_rate_limited_method

__all__ = ["FakeBotApi"]

_COMMAND = re.compile(r"/[A-Za-z0-9_]+(?:@[A-Za-z0-9_]+)?")


class FakeBotApi(BotApiMethods):
    def __init__(
        self,
        *,
        token: str = "123456:TEST-TOKEN",
        bot_id: int = 123456,
        bot_username: str = "quizbot_test_bot",
        latency: float = 0.0,
        limits: RateLimits | None = None,
    ) -> None:
        super().__init__(token=token, bot_id=bot_id, bot_username=bot_username)
        self.latency = latency  # awaited before answering anything but getUpdates
        self.limits = limits  # None: no flood control
        self.rejected_429 = 0
        # Errors to answer the next calls of a method with, in order (fault injection).
        self.failures: dict[str, list[ApiError]] = {}
        self.calls: list[ApiCall] = []
        self.internal_errors: list[BaseException] = []  # bugs in the fake (answered with 500)
        self._server = HttpServer(self._on_request)
        self._inflight = 0
        self._polled = False  # the bot has called getUpdates at least once
        self._last_activity = time.monotonic()
        self._query_seq = 0

    # -- lifecycle -----------------------------------------------------------------------------

    @property
    def url(self) -> str:
        return self._server.url

    @property
    def connections_accepted(self) -> int:
        return self._server.accepted

    async def start(self) -> None:
        self._changed = asyncio.Event()  # bind waiters to the running loop
        await self._server.start()

    async def stop(self) -> None:
        await self._server.stop()

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    # -- HTTP dispatch -------------------------------------------------------------------------

    async def _on_request(self, request: HttpRequest) -> HttpResponse:
        token, _, name = unquote(request.path).removeprefix("/bot").partition("/")
        if not request.path.startswith("/bot"):
            return HttpResponse.json(404, ApiError(404, "Not Found").payload())
        if token != self.token:
            return HttpResponse.json(401, ApiError(401, "Unauthorized").payload())
        method = self._method_names.get(name.lower())
        if method is None:
            return HttpResponse.json(404, ApiError(404, "Not Found: method not found").payload())
        try:
            params = decode_params(request, STRING_FIELDS)
        except (ValueError, UnicodeDecodeError) as exc:
            error = ApiError(400, f"Bad Request: can't parse request: {exc}")
            return HttpResponse.json(400, error.payload())
        call = ApiCall(method, params, time.monotonic())
        self.calls.append(call)
        tracked = method != "getUpdates"
        self._polled |= not tracked
        self._inflight += tracked
        self._activity(tracked)
        try:
            result = await self._run(method, params)
            call.status, call.result = 200, result
            response = HttpResponse.json(200, {"ok": True, "result": result})
        except ApiError as exc:
            call.status, call.description = exc.status, exc.description
            response = HttpResponse.json(exc.status, exc.payload())
        except asyncio.CancelledError:
            call.status, call.description = 499, "client closed the connection"
            raise
        except Exception as exc:
            self.internal_errors.append(exc)
            call.status, call.description = 500, f"Internal Server Error: {exc!r}"
            response = HttpResponse.json(500, ApiError(500, call.description).payload())
        finally:
            self._inflight -= tracked
            self._activity(tracked or bool(call.result))
        return response

    def fail_next(self, method: str, *errors: ApiError) -> None:
        """Answer the next calls of ``method`` with these errors, one each, in order."""
        self.failures.setdefault(method, []).extend(errors)

    async def _run(self, method: str, params: JsonDict) -> Any:
        if method != "getUpdates" and self.latency > 0:
            await asyncio.sleep(self.latency)
        if queued := self.failures.get(method):
            raise queued.pop(0)
        if self.limits is not None and is_rate_limited_method(method):
            chat_id = params.get("chat_id")
            chat = self.chats.get(chat_id) if isinstance(chat_id, int) else None
            is_group = chat.is_group if chat else isinstance(chat_id, int) and chat_id < 0
            key = chat_id if isinstance(chat_id, int | str) else None
            if retry := self.limits.check(key, is_group=is_group):
                self.rejected_429 += 1
                description = f"Too Many Requests: retry after {retry}"
                raise ApiError(429, description, {"retry_after": retry})
        return await self._methods[method](params)

    def _activity(self, counts: bool) -> None:
        """Wake waiters; ``counts``: this resets the quiet period :meth:`idle` waits for."""
        if counts:
            self._last_activity = time.monotonic()
        self._notify()

    # -- scripting users -----------------------------------------------------------------------

    def _register(self, chat: FakeChat, *users: FakeUser) -> None:
        self.chats.setdefault(chat.id, chat)
        for user in users:
            self.users[user.id] = user

    def send_message(
        self,
        chat: FakeChat,
        user: FakeUser,
        text: str,
        *,
        thread_id: int | None = None,
        reply_to: int | None = None,
    ) -> JsonDict:
        """A user writes ``text``; returns the message as delivered in the update."""
        self._register(chat, user)
        match = _COMMAND.match(text)
        entities = [{"type": "bot_command", "offset": 0, "length": match.end()}] if match else None
        msg = self._store(
            chat, user, text, thread_id=thread_id, reply_to=reply_to, entities=entities
        )
        data = self.message_dict(msg)
        self.push_update({"message": data})
        return data

    def press_button(self, chat: FakeChat, user: FakeUser, message_id: int, data: str) -> str:
        """A user presses a button (any ``data``, even a forged one); returns the query id."""
        self._register(chat, user)
        self._query_seq += 1
        query_id = str(7_000_000_000_000_000 + self._query_seq)
        msg = self._find(chat.id, message_id)
        message = (
            self.message_dict(msg)
            if msg
            else {"chat": chat.to_dict(), "message_id": message_id, "date": 0}
        )
        self._pending_queries.add(query_id)
        query = {
            "id": query_id,
            "from": user.to_dict(),
            "chat_instance": str(abs(chat.id) * 31 + 17),
            "data": data,
            "message": message,
        }
        self.push_update({"callback_query": query})
        return query_id

    def member_update(
        self,
        chat: FakeChat,
        actor: FakeUser,
        *,
        old_status: MemberStatus,
        new_status: MemberStatus,
        member: FakeUser | None = None,
    ) -> int:
        """``my_chat_member`` (member None: the bot; also kicks/blocks/restores the bot) or
        ``chat_member`` update; returns its update_id."""
        self._register(chat, actor)
        target = member or self.bot_user
        is_bot = target.id == self.bot_user.id
        if is_bot and new_status in ("left", "kicked"):
            (self.kick_bot if chat.is_group else self.block_bot)(chat.id)
        elif is_bot:
            self.restore_bot(chat.id)
        if not is_bot:
            self.users[target.id] = target
        self._member_status[chat.id, target.id] = new_status
        change = {
            "chat": chat.to_dict(),
            "from": actor.to_dict(),
            "date": int(time.time()),
            "old_chat_member": member_dict(target, old_status),
            "new_chat_member": member_dict(target, new_status),
        }
        return self.push_update({"my_chat_member" if is_bot else "chat_member": change})

    def add_member_update(
        self, chat: FakeChat, actor: FakeUser, member: FakeUser | None = None
    ) -> int:
        """The bot (or ``member``) was added to ``chat`` by ``actor``."""
        return self.member_update(
            chat, actor, old_status="left", new_status="member", member=member
        )

    # -- reading state -------------------------------------------------------------------------

    def calls_to(self, method: str) -> list[ApiCall]:
        return [c for c in self.calls if c.method == method]

    # -- waiting -------------------------------------------------------------------------------

    def _timeout_error(self, what: str, timeout: float) -> TimeoutError:
        last = "\n  ".join(c.short() for c in self.calls[-10:]) or "(none)"
        return TimeoutError(f"timed out after {timeout}s waiting for {what}; last calls:\n  {last}")

    async def wait_until(
        self,
        predicate: Callable[[], bool],
        timeout: float = 5.0,  # noqa: ASYNC109
        *,
        what: str = "condition",
    ) -> None:
        """Wait (without polling) until ``predicate()`` holds; re-checked after every change."""
        deadline = time.monotonic() + timeout
        while not predicate():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise self._timeout_error(what, timeout)
            await self._wait_change(remaining)

    async def wait_for_call(
        self,
        method: str,
        predicate: Callable[[ApiCall], bool] | None = None,
        *,
        count: int = 1,
        since: int = 0,
        timeout: float = 5.0,  # noqa: ASYNC109
    ) -> ApiCall:
        """The ``count``-th *answered* call to ``method`` among ``calls[since:]`` matching
        ``predicate`` (pass ``since=len(fake.calls)`` to ignore earlier calls)."""

        def matching() -> list[ApiCall]:
            calls = self.calls[since:]
            return [
                c
                for c in calls
                if c.method == method
                and c.status is not None
                and (predicate is None or predicate(c))
            ]

        await self.wait_until(lambda: len(matching()) >= count, timeout, what=f"{count}x {method}")
        return matching()[count - 1]

    async def callback_answer(self, query_id: str, timeout: float = 5.0) -> CallbackAnswer:  # noqa: ASYNC109
        """Wait for the bot to answer callback query ``query_id``."""
        await self.wait_until(
            lambda: query_id in self.callback_answers, timeout, what=f"answer to query {query_id}"
        )
        return self.callback_answers[query_id]

    async def idle(self, settle: float = 0.05, timeout: float = 5.0) -> None:  # noqa: ASYNC109
        """Wait until nothing is in flight, every update was fetched (once the bot polls) and no
        request (other than an empty long poll) arrived for ``settle`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            now = time.monotonic()
            unfetched = self._polled and any(
                u["update_id"] > self._delivered_upto for u in self._updates
            )
            quiet = now - self._last_activity
            if not self._inflight and not unfetched and quiet >= settle:
                return
            if now >= deadline:
                raise self._timeout_error(
                    f"idle (in flight: {self._inflight}, unfetched: {unfetched})", timeout
                )
            wait = settle - quiet if not self._inflight and not unfetched else deadline - now
            await self._wait_change(min(wait, deadline - now))
