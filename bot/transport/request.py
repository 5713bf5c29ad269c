"""A python-telegram-bot request class on aiohttp.

Measured in benchmarks/answers/: under a crowd the bot is CPU-bound in its HTTP client, and
an aiohttp call costs a fraction of the CPU of an httpx one (httpcore rescans its pool and
probes for optional modules on every request), which is what lets the answer path sustain
hundreds of answers per second on one core.
"""

from __future__ import annotations

import json
from http import HTTPStatus

import aiohttp
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

from bot import metrics

USER_AGENT = "quizbot (python-telegram-bot on aiohttp)"


def json_or_error(status: int, payload: bytes) -> bytes:
    """The body as PTB should parse it. An error answer that is not JSON (an HTML 502 page of
    Telegram's front end, a proxy's text) becomes Telegram's JSON error with its HTTP status,
    so PTB raises the error that status means (NetworkError for 5xx: retried) instead of
    logging "Can not load invalid JSON data" with a traceback."""
    if status < 400:
        return payload
    try:
        if isinstance(json.loads(payload), dict):
            return payload
    except ValueError:
        pass
    try:
        reason = HTTPStatus(status).phrase
    except ValueError:
        reason = "Error"
    return json.dumps({"ok": False, "error_code": status, "description": reason}).encode()


def _timeout(value: object, default: float | None) -> float | None:
    """A per-call timeout, or `default` when the caller left it unset (PTB's DEFAULT_NONE)."""
    if value is None or isinstance(value, int | float):
        return value
    return default


class AiohttpRequest(BaseRequest):
    def __init__(
        self,
        *,
        connection_pool_size: int = 32,
        read_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
    ) -> None:
        self._pool_size = connection_pool_size
        self._read_timeout = read_timeout
        self._connect_timeout = connect_timeout
        self._pool_timeout = pool_timeout
        self._session: aiohttp.ClientSession | None = None

    @property
    def read_timeout(self) -> float | None:
        return self._read_timeout

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self._pool_size),
                headers={"User-Agent": USER_AGENT},
            )

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        # PTB passes seconds, None (no limit) or its DEFAULT_NONE marker (our defaults).
        read_timeout: object = BaseRequest.DEFAULT_NONE,
        write_timeout: object = BaseRequest.DEFAULT_NONE,
        connect_timeout: object = BaseRequest.DEFAULT_NONE,
        pool_timeout: object = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        if self._session is None or self._session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        # aiohttp has no separate write timeout; a stalled write shows up as a read timeout.
        timeout = aiohttp.ClientTimeout(
            connect=_timeout(pool_timeout, self._pool_timeout),
            sock_connect=_timeout(connect_timeout, self._connect_timeout),
            sock_read=_timeout(read_timeout, self._read_timeout),
        )
        try:
            if request_data is not None and not request_data.contains_files:
                # JSON, which Telegram accepts: one json.dumps instead of percent-encoding
                # every character of a long question text.
                sent = self._session.request(
                    method, url, json=request_data.parameters, timeout=timeout
                )
            else:
                sent = self._session.request(
                    method, url, data=self._form(request_data), timeout=timeout
                )
            async with sent as response:
                payload = await response.read()
                # Counted once the whole answer is in: a 2xx as sent, a 429 as flood control.
                metrics.request_done(url, response.status)
                return response.status, json_or_error(response.status, payload)
        except TimeoutError as error:
            raise TimedOut from error
        except aiohttp.ClientError as error:
            raise NetworkError(f"aiohttp.{type(error).__name__}: {error}") from error

    @staticmethod
    def _form(request_data: RequestData | None) -> aiohttp.FormData | None:
        if request_data is None:
            return None
        form = aiohttp.FormData()
        for name, value in request_data.json_parameters.items():
            form.add_field(name, value)
        for name, part in request_data.multipart_data.items():
            filename, content, mimetype = part[0], part[1], part[2] if len(part) > 2 else None
            form.add_field(name, content, filename=filename, content_type=mimetype)
        return form
