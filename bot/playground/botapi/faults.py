"""Transport and API faults the fake Bot API can inject (see :meth:`BotApiServer.inject`).

A fault replaces the fake's normal handling of one matching call:

==================  =========================================  ================  =========
fault               what the client sees                       call.status       processed
==================  =========================================  ================  =========
ApiError            that status + ``{"ok": false, ...}``       its status        no
RawResponse         that status + body (e.g. nginx's HTML)     its status        no
Timeout(hold=None)  nothing until *its own* timeout fires      0 ("timeout")     no
Timeout(hold=s)     a disconnect after ``s`` seconds, or its   0 ("timeout")     no
                    own timeout if that is shorter
Drop()              the connection closed, no response         0 ("dropped")     no
ResponseLost()      the same, but the call took effect         0 ("response_     yes
                                                               lost")
==================  =========================================  ================  =========

Every faulted call is in :attr:`BotApiServer.calls` with ``call.fault`` set to the kind above
(``call.processed`` says whether it took effect), so tests can count attempts. A fault is chosen
when the call arrives (``when`` gets its decoded params) and applied after ``latency``.

``Timeout(hold=None)`` needs a client with a short read timeout (the bot's default is 5 s):
e.g. ``Bot(..., request=HTTPXRequest(read_timeout=0.2))``; the fake notices the client closing
the connection and records the call then (until then it is in flight: ``status`` None, and
:meth:`BotApiServer.idle` waits for it). ``Timeout(hold=s)`` bounds that wait on the fake's side
but is a disconnect, not a timeout, for a client whose own timeout is longer than ``s``.

``ResponseLost`` is the one fault after which a retry *legitimately* duplicates a send: the
message exists although the client saw an error.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .models import ApiCall, ApiError, FaultKind, JsonDict

__all__ = [
    "NGINX_BAD_GATEWAY",
    "Drop",
    "Fault",
    "FaultKind",
    "FaultPlan",
    "Injection",
    "RawResponse",
    "ResponseLost",
    "Timeout",
    "bad_gateway",
    "bot_blocked",
    "bot_kicked",
    "chat_migrated",
    "fault_kind",
    "internal_server_error",
    "params_match",
    "too_many_requests",
]

Predicate = Callable[[JsonDict], bool]


@dataclass(frozen=True, slots=True)
class RawResponse:
    """Answer with this status and body verbatim (not Telegram's JSON envelope)."""

    status: int
    body: bytes
    content_type: str = "text/html"


@dataclass(frozen=True, slots=True)
class Timeout:
    """Hold the request without processing it. ``hold=None``: until the client gives up and
    closes the connection; ``hold=seconds``: then close the connection without answering."""

    hold: float | None = None


@dataclass(frozen=True, slots=True)
class Drop:
    """Close the connection without any response, before processing (``reset``: with a TCP RST
    instead of a FIN, i.e. "connection reset by peer")."""

    reset: bool = False


@dataclass(frozen=True, slots=True)
class ResponseLost:
    """Process the call (it takes effect), then close the connection without answering."""

    reset: bool = False


Fault = ApiError | RawResponse | Timeout | Drop | ResponseLost

NGINX_BAD_GATEWAY = RawResponse(
    502,
    b"<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
    b"<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.18.0</center>\r\n"
    b"</body>\r\n</html>\r\n",
)


def fault_kind(fault: Fault) -> FaultKind:
    if isinstance(fault, ApiError):
        return "api_error"
    if isinstance(fault, RawResponse):
        return "raw_response"
    if isinstance(fault, Timeout):
        return "timeout"
    return "dropped" if isinstance(fault, Drop) else "response_lost"


# -- Telegram's errors, ready to inject ---------------------------------------------------------


def bad_gateway() -> ApiError:
    return ApiError(502, "Bad Gateway")


def internal_server_error() -> ApiError:
    return ApiError(500, "Internal Server Error")


def too_many_requests(retry_after: int) -> ApiError:
    return ApiError(
        429, f"Too Many Requests: retry after {retry_after}", {"retry_after": retry_after}
    )


def bot_kicked() -> ApiError:
    return ApiError(403, "Forbidden: bot was kicked from the group chat")


def bot_blocked() -> ApiError:
    return ApiError(403, "Forbidden: bot was blocked by the user")


def chat_migrated(new_chat_id: int) -> ApiError:
    return ApiError(
        400,
        "Bad Request: group chat was upgraded to a supergroup chat",
        {"migrate_to_chat_id": new_chat_id},
    )


def params_match(**expected: object) -> Predicate:
    """A ``when`` predicate: every given parameter equals its value, e.g.
    ``params_match(chat_id=-500, message_id=7)``."""
    return lambda params: all(params.get(name) == value for name, value in expected.items())


# -- the plan -----------------------------------------------------------------------------------


@dataclass(eq=False)
class Injection:
    """One injected fault; returned by :meth:`BotApiServer.inject` as a handle."""

    method: str
    fault: Fault
    when: Predicate | None = None
    remaining: int | None = 1  # None: until cancelled
    hits: list[ApiCall] = field(default_factory=list)  # the calls it answered

    @property
    def kind(self) -> FaultKind:
        return fault_kind(self.fault)

    @property
    def active(self) -> bool:
        return self.remaining is None or self.remaining > 0

    def cancel(self) -> None:
        self.remaining = 0

    def matches(self, method: str, params: JsonDict) -> bool:
        return self.active and self.method == method and (self.when is None or self.when(params))


class FaultPlan:
    """Injected faults in the order they were added; the first active match answers a call."""

    def __init__(self) -> None:
        self._injections: list[Injection] = []

    def add(self, injection: Injection) -> Injection:
        if injection.remaining is not None and injection.remaining < 1:
            raise ValueError(f"times must be at least 1 (or None), got {injection.remaining}")
        self._injections.append(injection)
        return injection

    def take(self, method: str, params: JsonDict, call: ApiCall) -> Fault | None:
        """The fault for this call (consuming one use), or None. Records the hit on ``call``."""
        self._injections = [i for i in self._injections if i.active]
        found = next((i for i in self._injections if i.matches(method, params)), None)
        if found is None:
            return None
        if found.remaining is not None:
            found.remaining -= 1
        found.hits.append(call)
        call.fault = found.kind
        return found.fault

    @property
    def pending(self) -> list[Injection]:
        return [i for i in self._injections if i.active]

    def clear(self) -> None:
        for injection in self._injections:
            injection.cancel()
        self._injections.clear()
