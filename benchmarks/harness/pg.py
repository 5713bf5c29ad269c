"""A PostgreSQL server and fresh databases for the benchmarks (no `main()`: a helper).

Uses `tests/pg_server.py` (a throwaway PostgreSQL 15 cluster in a temp dir, durability off:
fsync, synchronous_commit and full_page_writes are off, shared_buffers 64 MB), or the server
named by `$QUIZBOT_TEST_PG_DSN` (an admin DSN) when that is set.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
from collections.abc import Iterator
from urllib.parse import urlsplit

import asyncpg

from storage.postgres.migrate import migrate
from tests.pg_server import DSN_ENV, find_bindir, start_server


@contextlib.contextmanager
def pg_admin() -> Iterator[str]:
    """An admin DSN: `$QUIZBOT_TEST_PG_DSN`, else a throwaway server's (stopped on exit)."""
    dsn = os.environ.get(DSN_ENV)
    if dsn:
        yield dsn
        return
    bindir = find_bindir()
    if bindir is None:
        raise SystemExit(f"no PostgreSQL server binaries and no ${DSN_ENV}")
    server = start_server(bindir)
    try:
        yield server.dsn
    finally:
        server.stop()


def database_url(dsn: str, name: str) -> str:
    return urlsplit(dsn)._replace(path=f"/{name}").geturl()


async def create_database(
    admin_dsn: str, prefix: str = "quizbot_bench", migrated: bool = True
) -> str:
    """A new database (every migration applied unless `migrated` is false); returns its URL."""
    name = f"{prefix}_{os.getpid()}_{secrets.token_hex(3)}"
    conn = await asyncpg.connect(admin_dsn)
    try:
        await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
    finally:
        await conn.close()
    url = database_url(admin_dsn, name)
    if migrated:
        conn = await asyncpg.connect(url)
        try:
            await migrate(conn)
        finally:
            await conn.close()
    return url


def new_database(admin_dsn: str, prefix: str = "quizbot_bench") -> str:
    """`create_database` from synchronous code."""
    return asyncio.run(create_database(admin_dsn, prefix))
