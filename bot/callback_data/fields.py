"""Field syntax shared by the button types: ids and small numbers, validated as text."""

from __future__ import annotations

import re

ID = re.compile(r"[1-9][0-9]{0,17}")  # a stored row's id
POSITION = re.compile(r"[0-7]")  # a displayed option (A–H)
SMALL = re.compile(r"0|[1-9][0-9]{0,2}")  # an index or a count (at most 999)


def number(pattern: re.Pattern[str], text: str) -> int | None:
    """`text` as an int when it is written the way `pattern` says, else None."""
    return int(text) if pattern.fullmatch(text) else None


def numbers(patterns: tuple[re.Pattern[str], ...], fields: list[str] | None) -> list[int] | None:
    """Every field as an int when there are exactly as many as `patterns` and each matches."""
    if fields is None or len(fields) != len(patterns):
        return None
    values = [number(pattern, text) for pattern, text in zip(patterns, fields, strict=True)]
    return None if any(value is None for value in values) else [v for v in values if v is not None]
