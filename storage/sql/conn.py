"""What the stores need of a database, whichever engine it is: statements, rows, transactions.

A statement is one text where SQLite and PostgreSQL agree, written with SQLite's parameters
(`?` or `?N`); the PostgreSQL driver maps them to `$N` exactly (`postgres_text`). Where the
dialects must differ, `Variants` holds one text per engine.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Any, Protocol


class Dialect(Enum):
    SQLITE = "sqlite"
    POSTGRES = "postgres"


@dataclass(frozen=True)
class Variants:
    """One statement written twice, where the dialects disagree."""

    sqlite: str
    postgres: str

    def text(self, dialect: Dialect) -> str:
        return self.sqlite if dialect is Dialect.SQLITE else self.postgres


Sql = str | Variants
Params = Sequence[object]


class Row(Protocol):
    """A result row: by column name or position, and iterable in column order."""

    def __getitem__(self, key: Any, /) -> Any: ...

    def __iter__(self) -> Any: ...


class Conn(Protocol):
    """One connection (inside a transaction, or statements that each commit on their own)."""

    @property
    def dialect(self) -> Dialect: ...

    async def execute(self, sql: Sql, params: Params = ()) -> int:
        """Run one statement; how many rows it changed."""

    async def executemany(self, sql: Sql, params: Iterable[Params]) -> None: ...

    async def fetch_all(self, sql: Sql, params: Params = ()) -> list[Row]: ...

    async def fetch_one(self, sql: Sql, params: Params = ()) -> Row | None: ...


class Database(Conn, Protocol):
    """The engine the stores run on. `execute` and the fetches outside a block use any free
    connection and see what is committed."""

    def transaction(self) -> AbstractAsyncContextManager[Conn]:
        """Statements that commit together at the end of the block, or not at all."""

    def autocommit(self) -> AbstractAsyncContextManager[Conn]:
        """One connection whose statements each commit on their own (the answer path)."""

    async def ping(self) -> bool:
        """Whether the database answers a trivial query."""

    async def close(self) -> None: ...


async def first_value(conn: Conn, sql: Sql, params: Params = ()) -> Any:
    """The first column of the first row (None without a row)."""
    row = await conn.fetch_one(sql, params)
    return None if row is None else row[0]


# A parameter outside quotes: `?` or `?N` (SQLite) and the quoted parts to skip over.
_TOKENS = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\?(\d*)")


@lru_cache(maxsize=2048)
def postgres_text(sql: str) -> str:
    """`sql` with SQLite's parameters as PostgreSQL's: `?N` is `$N`, and a bare `?` takes the
    number after the largest used so far, as SQLite numbers it."""
    largest = 0

    def number(match: re.Match[str]) -> str:
        nonlocal largest
        if not match.group(0).startswith("?"):
            return match.group(0)
        n = int(match.group(1)) if match.group(1) else largest + 1
        largest = max(largest, n)
        return f"${n}"

    return _TOKENS.sub(number, sql)
