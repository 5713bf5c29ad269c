"""Copying a big SQLite database to PostgreSQL: `python -m benchmarks.copy_to_postgres`.

Builds the leaderboard benchmark's database (benchmarks/leaderboard/sqlite.py: a year of
answers over many chats, `period_scores` and `learning_log` kept by the triggers), copies it with
`storage.copy.copy_sqlite_to_postgres` (what `python -m bot copy-to-postgres` runs) into a new
database on a throwaway PostgreSQL server (tests/pg_server.py; or `--dsn`, an admin DSN of a
server to create the database on), and prints the report: rows per table, the copy's and the
check's times, and whether every count and leaderboard matched. Then, as a check of its own,
the largest chat's boards through both stores (`top`, the whole board).
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import asyncpg

from benchmarks.leaderboard.sqlite import NOW, ZONES, create, fill
from bot.core.model import PeriodKind
from bot.core.rules.periods import period_start
from storage.copy import CopyReport
from storage.copy.run import copy_sqlite_to_postgres
from storage.postgres.store import PostgresStore
from storage.sqlite import SqliteStore
from tests.pg_server import PgServer, find_bindir, start_server

# fill() gives the largest chat (its first) the first zone.
LARGEST_ZONE = ZoneInfo(ZONES[0])


async def _create_database(admin_dsn: str) -> str:
    """A new empty database on the server; its URL."""
    name = f"quizbot_copy_{secrets.token_hex(4)}"
    conn = await asyncpg.connect(admin_dsn)
    try:
        await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
    finally:
        await conn.close()
    return urlsplit(admin_dsn)._replace(path=f"/{name}").geturl()


async def _drop_database(admin_dsn: str, url: str) -> None:
    conn = await asyncpg.connect(admin_dsn)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{urlsplit(url).path[1:]}" WITH (FORCE)')
    finally:
        await conn.close()


async def _same_boards(path: Path, url: str, chat_id: int) -> int:
    """The largest chat's current week, month and all-time boards, whole, through both stores:
    how many rows they have; SystemExit if they differ."""
    sqlite_store = await SqliteStore.open(path)
    pg_store = await PostgresStore.open(url, pool_size=2)
    try:
        rows = 0
        for kind in PeriodKind:
            start = period_start(kind, NOW, LARGEST_ZONE)
            mine = await sqlite_store.top(chat_id, kind, start, 1_000_000)
            theirs = await pg_store.top(chat_id, kind, start, 1_000_000)
            if mine != theirs:
                raise SystemExit(f"the {kind.value} board of chat {chat_id} differs")
            rows += len(mine)
        return rows
    finally:
        await sqlite_store.close()
        await pg_store.close()


def print_report(report: CopyReport) -> None:
    width = max(len(table.name) for table in report.tables)
    for table in report.tables:
        print(f"  {table.name:<{width}} {table.rows:>12,}")
    rate = report.rows / report.copy_seconds if report.copy_seconds else 0.0
    print(
        f"copied {report.rows:,} rows in {len(report.tables)} tables in "
        f"{report.copy_seconds:.1f} s ({rate:,.0f} rows/s); checked in "
        f"{report.verify_seconds:.1f} s"
    )
    if report.ok:
        print(f"verified: counts and leaderboards match ({report.boards:,} leaderboards)")
    else:
        print("MISMATCH:")
        for difference in report.differences:
            print(f"  {difference}")


async def copy_and_check(path: Path, admin_dsn: str, chat_id: int, batch_rows: int) -> bool:
    url = await _create_database(admin_dsn)
    try:
        started = time.perf_counter()
        report = await copy_sqlite_to_postgres(path, url, batch_rows=batch_rows)
        total = time.perf_counter() - started
        print_report(report)
        print(f"the whole command (connect, migrate, copy, check) took {total:.1f} s")
        rows = await _same_boards(path, url, chat_id)
        print(f"the largest chat's three boards ({rows:,} rows) are equal through both stores")
        return report.ok
    finally:
        await _drop_database(admin_dsn, url)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--answers", type=int, default=1_000_000)
    parser.add_argument("--chats", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--batch-rows", type=int, default=20_000)
    parser.add_argument("--dsn", help="an admin DSN of a server to use (default: a throwaway one)")
    args = parser.parse_args(argv)
    server: PgServer | None = None
    dsn = args.dsn
    if dsn is None:
        bindir = find_bindir()
        if bindir is None:
            print("skipped: no PostgreSQL server binaries (initdb, pg_ctl, postgres) and no --dsn")
            return
        server = start_server(bindir)
        dsn = server.dsn
    try:
        with tempfile.TemporaryDirectory(prefix="quizbot-bench-") as scratch:
            path = Path(scratch) / "bench.sqlite3"
            asyncio.run(create(path))
            started = time.perf_counter()
            chat_id = fill(path, args.answers, args.chats, args.seed)
            print(
                f"filled {args.answers:,} answers over {args.chats:,} chats in "
                f"{time.perf_counter() - started:.1f} s ({path.stat().st_size / 2**20:.0f} MiB)"
            )
            if not asyncio.run(copy_and_check(path, dsn, chat_id, args.batch_rows)):
                raise SystemExit(1)
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
