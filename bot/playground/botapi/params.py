"""Request parameters the Telegram way: query string + form, JSON or multipart body."""

from __future__ import annotations

import email.message
import email.parser
import email.policy
import json
from collections.abc import Collection
from typing import Any
from urllib.parse import parse_qsl

from .http import HttpRequest

__all__ = ["decode_params"]


def _no_constants(name: str) -> object:
    raise ValueError(name)


def _maybe_json(value: str) -> object:
    """JSON-decode objects, arrays, numbers and booleans; keep anything else as the string."""
    if not value or value[0] not in "{[-0123456789tf":
        return value
    try:
        decoded: object = json.loads(value, parse_constant=_no_constants)
    except ValueError:
        return value
    return decoded if isinstance(decoded, dict | list | int | float | bool) else value


def _multipart(req: HttpRequest) -> list[tuple[str, str | bytes]]:
    """The parts of a multipart/form-data body: a part with a filename is a file and keeps its
    bytes exactly (as the Bot API's HttpReader keeps them); any other part is a text field.

    The body is split on its boundary as bytes (RFC 2046: a part ends at CRLF + "--" + boundary);
    only each part's few header lines go through the email parser."""
    boundary = _content_type(req.headers["content-type"]).get_param("boundary")
    if not isinstance(boundary, str) or not boundary:
        raise ValueError("multipart/form-data without a boundary")
    chunks = (b"\r\n" + req.body).split(b"\r\n--" + boundary.encode("latin-1"))
    fields: list[tuple[str, str | bytes]] = []
    for chunk in chunks[1:]:  # chunks[0] is the preamble
        if chunk.startswith(b"--"):  # the close delimiter: the rest is the epilogue
            break
        _padding, crlf, part = chunk.partition(b"\r\n")  # the rest of the boundary's line
        if part.startswith(b"\r\n"):  # a part without headers
            head, sep, payload = b"", b"\r\n", part[2:]
        else:
            head, sep, payload = part.partition(b"\r\n\r\n")
        if not crlf or not sep:
            raise ValueError("malformed multipart/form-data part")
        headers = email.parser.BytesHeaderParser(policy=email.policy.HTTP).parsebytes(head)
        name = headers.get_param("name", header="content-disposition")
        if not isinstance(name, str):
            continue
        is_file = headers.get_filename() is not None
        fields.append((name, payload if is_file else payload.decode()))
    return fields


def _content_type(value: str) -> email.message.Message:
    message = email.message.Message()
    message["content-type"] = value
    return message


def decode_params(req: HttpRequest, string_fields: Collection[str] = ()) -> dict[str, Any]:
    """Query string + body (form, JSON or multipart) as a dict, Telegram style.

    Form/multipart/query values are JSON-decoded when they look like JSON objects, arrays,
    numbers or booleans, except for the names in ``string_fields``; uploaded files stay bytes.
    """
    query = parse_qsl(req.query, keep_blank_values=True)
    ctype = req.content_type
    if ctype == "application/json" and req.body.strip():
        body = json.loads(req.body)
        if not isinstance(body, dict):
            raise ValueError("JSON body must be an object")
        params = {k: v if k in string_fields else _maybe_json(v) for k, v in query}
        return params | body
    fields: list[tuple[str, str | bytes]] = list(query)
    if ctype == "application/x-www-form-urlencoded":
        fields += parse_qsl(req.body.decode(), keep_blank_values=True)
    elif ctype == "multipart/form-data":
        fields += _multipart(req)
    return {
        k: v if isinstance(v, bytes) or k in string_fields else _maybe_json(v) for k, v in fields
    }
