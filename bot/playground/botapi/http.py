"""A tiny HTTP/1.1 server on ``asyncio.start_server`` (keep-alive, Content-Length, chunked).

Only what the fake Bot API needs: one request at a time per connection, a disconnect while a
request is being handled cancels the handler (so an abandoned long poll does not linger), and a
handler may raise :class:`CloseConnection` to hang up without answering (fault injection).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import struct
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any
from urllib.parse import urlsplit

__all__ = ["CloseConnection", "HttpRequest", "HttpResponse", "HttpServer"]

_MAX_BODY = 64 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class HttpRequest:
    method: str
    path: str
    query: str
    headers: dict[str, str]  # lower-cased names
    body: bytes
    version: str = "HTTP/1.1"

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "").split(";", 1)[0].strip().lower()


@dataclass(frozen=True, slots=True)
class HttpResponse:
    status: int
    body: bytes = b""
    content_type: str = "application/json"

    @classmethod
    def json(cls, status: int, payload: object) -> HttpResponse:
        return cls(status, json.dumps(payload, ensure_ascii=False).encode())


Handler = Callable[[HttpRequest], Awaitable[HttpResponse]]


class _BadHttpError(Exception):
    pass


class CloseConnection(Exception):  # noqa: N818 - an instruction, not an error
    """Raised by a handler: close the TCP connection without any response (``reset``: send an
    RST, so the client sees "connection reset by peer", instead of an orderly FIN)."""

    def __init__(self, *, reset: bool = False) -> None:
        super().__init__("close the connection without answering")
        self.reset = reset


class HttpServer:
    """Serves ``handler`` on 127.0.0.1; ``port=0`` picks a free port."""

    def __init__(self, handler: Handler, *, host: str = "127.0.0.1", port: int = 0) -> None:
        self._handler = handler
        self._host = host
        self._port = port
        self._server: asyncio.Server | None = None
        self._connections: dict[asyncio.Task[Any], asyncio.Task[None]] = {}  # outer -> inner
        self.accepted = 0  # connections accepted so far

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("server is not running")
        return int(self._server.sockets[0].getsockname()[1])

    @property
    def url(self) -> str:
        return f"http://{self._host}:{self.port}"

    async def start(self) -> None:
        if self._server is not None:
            raise RuntimeError("server already started")
        self._server = await asyncio.start_server(self._serve, self._host, self._port)

    async def stop(self) -> None:
        server, self._server = self._server, None
        if server is None:
            return
        server.close()
        for inner in self._connections.values():
            inner.cancel()
        tasks = [*self._connections, *self._connections.values()]
        await asyncio.gather(*tasks, return_exceptions=True)
        await server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        # stop() cancels the inner task; this outer one (owned by asyncio.start_server) must end
        # normally, or Python 3.11's StreamReaderProtocol logs the CancelledError as an error.
        outer = asyncio.current_task()
        assert outer is not None
        inner = asyncio.ensure_future(self._connection(reader, writer))
        self._connections[outer] = inner
        self.accepted += 1
        try:
            await inner
        except asyncio.CancelledError:
            if outer.cancelling():
                raise
        finally:
            self._connections.pop(outer, None)

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            prefix = b""
            while True:
                try:
                    request = await _read_request(reader, prefix)
                except _BadHttpError as exc:
                    await _write(writer, HttpResponse(400, str(exc).encode(), "text/plain"), False)
                    return
                if request is None:
                    return
                response, prefix = await self._handle(reader, request)
                if response is None:  # client went away mid-request
                    return
                if isinstance(response, CloseConnection):
                    if response.reset:
                        _reset(writer)
                    return
                keep_alive = _keep_alive(request)
                await _write(writer, response, keep_alive)
                if not keep_alive:
                    return
        except (ConnectionError, asyncio.IncompleteReadError):
            return
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _handle(
        self, reader: asyncio.StreamReader, request: HttpRequest
    ) -> tuple[HttpResponse | CloseConnection | None, bytes]:
        """Run the handler while watching the socket: EOF cancels it. Returns (response, prefix)
        where prefix is a byte of a pipelined next request read while probing."""
        handler = asyncio.ensure_future(self._handler(request))
        probe = asyncio.ensure_future(reader.read(1))
        try:
            await asyncio.wait({handler, probe}, return_when=asyncio.FIRST_COMPLETED)
            prefix = b""
            if probe.done() and (probe.exception() is not None or not (prefix := probe.result())):
                return None, b""
            response = await handler
            return response, prefix
        except CloseConnection as close:
            return close, b""
        except Exception as exc:  # a bug in the handler: answer 500 rather than hang
            body = f"handler crashed: {exc!r}".encode()
            return HttpResponse(500, body, "text/plain"), b""
        finally:
            for task in (handler, probe):
                if not task.done():
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await task


async def _read_request(reader: asyncio.StreamReader, prefix: bytes) -> HttpRequest | None:
    try:
        head = prefix + await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError as exc:
        if not (prefix + exc.partial).strip():
            return None  # clean close between requests
        raise _BadHttpError("truncated request head") from exc
    except asyncio.LimitOverrunError as exc:
        raise _BadHttpError("request head too large") from exc
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
        raise _BadHttpError(f"bad request line {lines[0]!r}")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if line:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = await _read_chunked(reader)
    else:
        try:
            length = int(headers.get("content-length", "0"))
        except ValueError as exc:
            raise _BadHttpError("bad Content-Length") from exc
        if not 0 <= length <= _MAX_BODY:
            raise _BadHttpError("bad Content-Length")
        body = await reader.readexactly(length)
    target = urlsplit(parts[1])
    return HttpRequest(parts[0].upper(), target.path, target.query, headers, body, parts[2])


async def _read_chunked(reader: asyncio.StreamReader) -> bytes:
    chunks: list[bytes] = []
    while True:
        size_line = await reader.readuntil(b"\r\n")
        try:
            size = int(size_line.split(b";", 1)[0].strip(), 16)
        except ValueError as exc:
            raise _BadHttpError("bad chunk size") from exc
        if size == 0:
            while (await reader.readuntil(b"\r\n")) != b"\r\n":  # trailers
                pass
            return b"".join(chunks)
        chunks.append(await reader.readexactly(size))
        await reader.readexactly(2)


def _reset(writer: asyncio.StreamWriter) -> None:
    """Abort the connection with an RST (SO_LINGER 0) rather than a FIN."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


def _keep_alive(request: HttpRequest) -> bool:
    connection = request.headers.get("connection", "").lower()
    if request.version == "HTTP/1.0":
        return connection == "keep-alive"
    return connection != "close"


async def _write(writer: asyncio.StreamWriter, response: HttpResponse, keep_alive: bool) -> None:
    try:
        reason = HTTPStatus(response.status).phrase
    except ValueError:
        reason = "Unknown"
    head = (
        f"HTTP/1.1 {response.status} {reason}\r\n"
        f"Content-Type: {response.content_type}\r\n"
        f"Content-Length: {len(response.body)}\r\n"
        f"Connection: {'keep-alive' if keep_alive else 'close'}\r\n\r\n"
    )
    writer.write(head.encode("latin-1") + response.body)
    await writer.drain()
