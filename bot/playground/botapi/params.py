"""Request parameters the Telegram way: query string + form, JSON or multipart body."""

from __future__ import annotations

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
    raw = b"Content-Type: " + req.headers["content-type"].encode() + b"\r\n\r\n" + req.body
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(raw)
    fields: list[tuple[str, str | bytes]] = []
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True)
        if not isinstance(name, str) or not isinstance(payload, bytes):
            continue
        is_file = part.get_filename() is not None
        fields.append((name, payload if is_file else payload.decode()))
    return fields


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
