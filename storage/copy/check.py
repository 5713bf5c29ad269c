"""Checking a committed copy (storage/copy/): every copied table has as many rows in
PostgreSQL as in the file's snapshot, and every leaderboard lists the same rows in the same
order in both."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncGenerator
from contextlib import aclosing
from datetime import UTC, datetime
from typing import Any

import asyncpg

from storage.copy.model import Table, TableCopy, quote
from storage.copy.source import batches
from storage.sql.boards import ACCURACY
from storage.sql.conn import Variants

# How a leaderboard ranks its rows: the ORDER BY of storage.sql.boards.TOP (a test checks it).
_ORDER = "s.correct DESC, {accuracy} DESC, s.reached_at NULLS LAST, s.user_id"
BOARD_ORDER = Variants(
    _ORDER.format(accuracy=ACCURACY.sqlite), _ORDER.format(accuracy=ACCURACY.postgres)
)
_BOARDS = (
    "SELECT s.chat_id, s.period, s.period_start, s.user_id, s.correct, s.answered, "
    "s.reached_at, s.streak, s.best_streak FROM period_scores AS s "
    "ORDER BY s.chat_id, s.period, s.period_start, {order}"
)
DIFFERENCES_SHOWN = 5


async def count(
    conn: asyncpg.Connection, source: sqlite3.Connection, tables: list[Table]
) -> tuple[list[TableCopy], list[str]]:
    """Each table's rows in the snapshot; a difference for each table PostgreSQL has not as
    many of."""
    counted, differences = [], []
    for table in tables:
        (expected,) = source.execute(f"SELECT count(*) FROM {quote(table.name)}").fetchone()
        got = await conn.fetchval(f"SELECT count(*) FROM {quote(table.name)}")
        counted.append(TableCopy(table.name, int(expected)))
        if got != expected:
            differences.append(f"{table.name}: {expected} rows in the file, {got} in PostgreSQL")
    return counted, differences


async def compare_boards(
    conn: asyncpg.Connection, source: sqlite3.Connection, batch_rows: int
) -> tuple[int, list[str]]:
    """How many leaderboards the snapshot has, and the first ones that differ in PostgreSQL:
    both engines rank every board with its own ORDER BY and the rows must match in order."""
    boards, differences = 0, []
    board: tuple[Any, ...] | None = None
    place = 0
    differing: set[tuple[Any, ...]] = set()
    # SQLite sorts the whole table before the first row: in a thread.
    ranked = await asyncio.to_thread(source.execute, _BOARDS.format(order=BOARD_ORDER.sqlite))
    async with conn.transaction(isolation="repeatable_read", readonly=True):
        theirs = _pg_rows(conn, _BOARDS.format(order=BOARD_ORDER.postgres), batch_rows)
        ours = _sqlite_rows(ranked, batch_rows)
        async with aclosing(theirs), aclosing(ours):
            while True:
                mine, other = await anext(ours, None), await anext(theirs, None)
                if mine is None and other is None:
                    break
                key = (mine or other or ())[:3]
                if key != board:
                    board, place = key, 0
                    boards += mine is not None
                place += 1
                if mine != other and key not in differing:
                    differing.add(key)
                    differences.append(
                        f"{_board_name(key)}, place {place}: {_score(mine)} in the file, "
                        f"{_score(other)} in PostgreSQL"
                    )
                    if len(differences) == DIFFERENCES_SHOWN:
                        break
    return boards, differences


async def _pg_rows(
    conn: asyncpg.Connection, query: str, size: int
) -> AsyncGenerator[tuple[Any, ...], None]:
    cursor = await conn.cursor(query)
    while batch := await cursor.fetch(size):
        for row in batch:
            yield tuple(row)


async def _sqlite_rows(cursor: sqlite3.Cursor, size: int) -> AsyncGenerator[tuple[Any, ...], None]:
    async with aclosing(batches(cursor, size)) as rows:
        async for batch in rows:
            for row in batch:
                yield tuple(row)


def _board_name(key: tuple[Any, ...]) -> str:
    chat_id, period, start = key
    if period == "all":
        return f"chat {chat_id} all-time board"
    begins = datetime.fromtimestamp(start / 1000, UTC)
    return f"chat {chat_id} {period} board from {begins:%Y-%m-%d %H:%M} UTC"


def _score(row: tuple[Any, ...] | None) -> str:
    if row is None:
        return "nobody"
    user, correct, answered, reached, streak, best = row[3:]
    return (
        f"user {user} ({correct}/{answered} right, reached at {reached}, "
        f"streak {streak}, best {best})"
    )
