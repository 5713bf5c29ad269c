"""Reading diagram data files: YAML mappings with a `kind`, optionally `extends: <other file>`
(the other file's keys, overridden key by key: an explanation image is its question image
plus a highlight), and small typed accessors that name the file and key in their errors."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

DATA_SUFFIX = ".yaml"


class SpecError(ValueError):
    """A data file that cannot be drawn: says which file and key, and why."""


def load(path: Path, seen: tuple[Path, ...] = ()) -> dict[str, Any]:
    """The data of `path` with its `extends` chain merged in (own keys win)."""
    if path in seen:
        chain = " -> ".join(p.name for p in (*seen, path))
        raise SpecError(f"{path.name}: `extends` goes round in a circle: {chain}")
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(raw, dict):
        raise SpecError(f"{path.name}: must be a mapping with a `kind`")
    parent_name = raw.pop("extends", None)
    if parent_name is None:
        return raw
    if not isinstance(parent_name, str):
        raise SpecError(f"{path.name}: `extends` must name another data file")
    parent = load(path.with_name(parent_name + DATA_SUFFIX), (*seen, path))
    return parent | raw


class Spec:
    """One mapping of a data file (the file itself or a part of it), read with typed getters."""

    def __init__(self, data: Mapping[str, Any], where: str) -> None:
        self.data = data
        self.where = where

    def _fail(self, key: str, why: str) -> SpecError:
        return SpecError(f"{self.where}: `{key}` {why}")

    def has(self, key: str) -> bool:
        return key in self.data

    def text(self, key: str, default: str | None = None) -> str:
        value = self.data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise self._fail(key, "must be text")
        return str(value)

    def number(self, key: str, default: float | None = None) -> float:
        value = self.data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self._fail(key, "must be a number")
        return float(value)

    def integer(self, key: str, default: int | None = None) -> int:
        value = self.data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._fail(key, "must be a whole number")
        return value

    def flag(self, key: str, default: bool = False) -> bool:
        value = self.data.get(key, default)
        if not isinstance(value, bool):
            raise self._fail(key, "must be true or false")
        return value

    def texts(self, key: str) -> list[str]:
        """A list of text, or one text as a list of one; absent: empty."""
        value = self.data.get(key, [])
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
            raise self._fail(key, "must be text or a list of text")
        return list(items)

    def pair(self, key: str, default: Sequence[float] | None = None) -> tuple[float, float]:
        value = self.data.get(key, default)
        if (
            not isinstance(value, Sequence)
            or len(value) != 2
            or not all(isinstance(item, int | float) for item in value)
        ):
            raise self._fail(key, "must be a pair of numbers, e.g. [100, 1100]")
        return float(value[0]), float(value[1])

    def items(self, key: str) -> list[Spec]:
        """A list of mappings, each as a Spec; absent: empty."""
        value = self.data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
            raise self._fail(key, "must be a list of mappings")
        return [Spec(item, f"{self.where} {key} #{index + 1}") for index, item in enumerate(value)]

    def legend(self) -> list[tuple[str, str]]:
        """`legend:` as (style, label) pairs, written `- [style, label]`."""
        value = self.data.get("legend", [])
        entries = []
        for entry in value if isinstance(value, list) else [None]:
            if not (
                isinstance(entry, list)
                and len(entry) == 2
                and all(isinstance(e, str) for e in entry)
            ):
                raise self._fail("legend", "must be a list of [style, label] pairs")
            entries.append((entry[0], entry[1]))
        return entries
