"""The in-process Telegram Bot API server, for the playground, the end-to-end tests and the
benchmarks.

Point PTB at it with ``ApplicationBuilder().token(fake.token).base_url(f"{fake.url}/bot")``
(and ``.base_file_url(f"{fake.url}/file/bot")`` to download files); requests arrive as
``POST /bot<token>/<method>``, downloads as ``GET /file/bot<token>/<file_path>``. Script users
with :meth:`send_message` and :meth:`press_button`, then assert on :attr:`calls`,
:meth:`chat_messages` and friends. Photos the bot sends are kept in :attr:`files` (see
:mod:`bot.playground.botapi.photos`).

Texts are checked as strictly as Telegram does (``parse_mode=HTML`` is parsed, see
:mod:`bot.playground.botapi.html`), and :meth:`inject` makes chosen calls fail the way
Telegram and the network do (API errors, timeouts, dropped connections, lost responses; see
:mod:`bot.playground.botapi.faults`). Every attempt, faulted or not, is recorded in
:attr:`calls`.

After setWebhook, updates are POSTed to the bot instead of waiting for getUpdates (which then
fails with 409); :attr:`webhook` records the deliveries (see
:mod:`bot.playground.botapi.webhook`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any, Self
from urllib.parse import unquote

from .faults import Drop, Fault, FaultPlan, Injection, RawResponse, ResponseLost, Timeout
from .http import CloseConnection, HttpRequest, HttpResponse, HttpServer
from .methods import STRING_FIELDS
from .models import ApiCall, ApiError, JsonDict
from .params import decode_params
from .ratelimit import RateLimits, is_rate_limited_method
from .waiting import BotApiWaiting

__all__ = ["BotApiServer"]


class BotApiServer(BotApiWaiting):
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
        self.internal_errors: list[BaseException] = []  # bugs in the fake (answered with 500)
        self._faults = FaultPlan()
        self._server = HttpServer(self._on_request)

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
        await self.webhook.stop()
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

    # -- a long-running server ----------------------------------------------------------------

    def forget_old(self, keep: int) -> None:
        """Keep only the newest `keep` calls, updates and press answers, and of each chat's
        messages the newest `keep` plus up to `keep` older ones with buttons (the bot may still
        edit an open question). The tests keep everything; the playground calls this now and
        then, so a long session does not grow the server without end."""
        del self.calls[:-keep]
        self.webhook.forget_old(keep)
        self._forget_old_state(keep)

    # -- fault injection -----------------------------------------------------------------------

    def inject(
        self,
        method: str,
        fault: Fault,
        *,
        when: Callable[[JsonDict], bool] | None = None,
        times: int | None = 1,
    ) -> Injection:
        """Answer the next ``times`` calls of ``method`` (None: every call until
        :meth:`Injection.cancel`) whose params satisfy ``when`` with ``fault`` instead of
        handling them. The first matching injection, in the order added, wins; faults are
        chosen when a call arrives. See :mod:`bot.playground.botapi.faults` for what each
        fault does."""
        name = self._method_names.get(method.lower())
        if name is None:
            raise ValueError(f"the fake does not implement {method!r}")
        return self._faults.add(Injection(name, fault, when, times))

    def fail_next(self, method: str, *errors: ApiError) -> None:
        """Answer the next calls of ``method`` with these errors, one each, in order."""
        name = self._method_names.get(method.lower(), method)
        for error in errors:
            self._faults.add(Injection(name, error))

    @property
    def failures(self) -> dict[str, list[ApiError]]:
        """Pending unconditional API errors per method (as queued by :meth:`fail_next`)."""
        queued: dict[str, list[ApiError]] = {}
        for injection in self._faults.pending:
            if injection.when is None and isinstance(injection.fault, ApiError):
                uses = 1 if injection.remaining is None else injection.remaining
                queued.setdefault(injection.method, []).extend([injection.fault] * uses)
        return queued

    @property
    def pending_faults(self) -> list[Injection]:
        """Injections that can still answer a call."""
        return self._faults.pending

    def clear_faults(self) -> None:
        """Cancel every injected fault (fail_next's included)."""
        self._faults.clear()

    # -- HTTP dispatch -------------------------------------------------------------------------

    async def _on_request(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith("/file/bot"):
            return self._download(request)
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
            fault = self._faults.take(method, params, call)
            if tracked and self.latency > 0:
                await asyncio.sleep(self.latency)
            if fault is not None and not isinstance(fault, ResponseLost):
                return await self._fault(call, fault)
            response = await self._answer(call)
            if isinstance(fault, ResponseLost):
                call.description = f"processed (would answer {call.status}), response lost"
                call.status = 0
                raise CloseConnection(reset=fault.reset)
            return response
        except asyncio.CancelledError:
            if call.fault == "timeout":
                call.status, call.description = 0, "held unanswered until the client hung up"
            else:
                call.status, call.description = 499, "client closed the connection"
            raise
        except CloseConnection:
            raise
        except Exception as exc:
            self.internal_errors.append(exc)
            call.status, call.description = 500, f"Internal Server Error: {exc!r}"
            return HttpResponse.json(500, ApiError(500, call.description).payload())
        finally:
            self._inflight -= tracked
            self._activity(tracked or bool(call.result))

    async def _answer(self, call: ApiCall) -> HttpResponse:
        """Handle the call for real; record and answer its outcome."""
        try:
            result = await self._run(call.method, call.params)
        except ApiError as exc:
            call.status, call.description = exc.status, exc.description
            return HttpResponse.json(exc.status, exc.payload())
        call.status, call.result, call.processed = 200, result, True
        return HttpResponse.json(200, {"ok": True, "result": result})

    async def _fault(self, call: ApiCall, fault: Fault) -> HttpResponse:
        """Answer with an injected fault, without handling the call."""
        if isinstance(fault, ApiError):
            call.status, call.description = fault.status, fault.description
            return HttpResponse.json(fault.status, fault.payload())
        if isinstance(fault, RawResponse):
            call.status = fault.status
            call.description = f"raw {fault.content_type} body ({len(fault.body)} bytes)"
            return HttpResponse(fault.status, fault.body, fault.content_type)
        if isinstance(fault, Timeout):
            if fault.hold is None:  # until the client hangs up (cancels this task)
                await asyncio.get_running_loop().create_future()
            await asyncio.sleep(fault.hold or 0.0)
            call.status, call.description = 0, f"held {fault.hold} s, then hung up unanswered"
            raise CloseConnection
        assert isinstance(fault, Drop), fault
        call.status, call.description = 0, "connection dropped before processing"
        raise CloseConnection(reset=fault.reset)

    async def _run(self, method: str, params: JsonDict) -> Any:
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
