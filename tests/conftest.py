"""Shared test set-up, and the PostgreSQL fixtures: a server per session, a database per test."""

import asyncio
import os
import secrets
import threading
from collections.abc import AsyncIterator, Coroutine, Iterator
from typing import Any
from urllib.parse import urlsplit

import asyncpg
import pytest

from storage.postgres.migrate import migrate
from tests.pg_server import DSN_ENV, find_bindir, start_server

# Before python-telegram-bot is imported anywhere: durations as timedeltas, without a
# deprecation warning (warnings are errors here).
os.environ.setdefault("PTB_TIMEDELTA", "1")


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """An admin DSN (may create databases): $QUIZBOT_TEST_PG_DSN, else a throwaway server's.

    Skips only when there is neither, and never under CI=true (there it fails); a server that
    is there but does not start fails.
    """
    dsn = os.environ.get(DSN_ENV)
    if dsn:
        yield dsn
        return
    bindir = find_bindir()
    if bindir is None:
        missing = pytest.fail if os.environ.get("CI") == "true" else pytest.skip
        missing(
            f"PostgreSQL tests need initdb, pg_ctl and postgres (PostgreSQL 15 server binaries) "
            f"or {DSN_ENV}=postgresql://user@host:port/db naming a server to use"
        )
    server = start_server(bindir)
    try:
        yield server.dsn
    finally:
        server.stop()


@pytest.fixture(scope="session")
def pg_template(pg_server: str) -> Iterator[str]:
    """A database with every migration applied, copied by `pg_migrated_url` for each test."""
    name = _unique_name("quizbot_template")
    _run_in_thread(_create(pg_server, name, "template0"))
    _run_in_thread(_migrate(database_url(pg_server, name)))
    try:
        yield name
    finally:
        _run_in_thread(_drop(pg_server, name))


@pytest.fixture
async def pg_url(pg_server: str) -> AsyncIterator[str]:
    """The URL of a fresh, empty database, dropped after the test."""
    name = _unique_name("quizbot_test")
    await _create(pg_server, name, "template0")
    try:
        yield database_url(pg_server, name)
    finally:
        await _drop(pg_server, name)


@pytest.fixture
async def pg_migrated_url(pg_server: str, pg_template: str) -> AsyncIterator[str]:
    """The URL of a fresh database with every migration applied, dropped after the test."""
    name = _unique_name("quizbot_test")
    await _create(pg_server, name, pg_template)
    try:
        yield database_url(pg_server, name)
    finally:
        await _drop(pg_server, name)


def database_url(dsn: str, name: str) -> str:
    """`dsn` with its database replaced by `name`."""
    return urlsplit(dsn)._replace(path=f"/{name}").geturl()


def _unique_name(prefix: str) -> str:
    return f"{prefix}_{os.getpid()}_{secrets.token_hex(4)}"


async def _create(admin_dsn: str, name: str, template: str) -> None:
    conn = await asyncpg.connect(admin_dsn)
    try:
        # A file copy (PostgreSQL 15+) is several times faster than the default WAL_LOG for a
        # database this small: its checkpoints cost little with fsync off.
        fast = " STRATEGY FILE_COPY" if conn.get_server_version().major >= 15 else ""
        await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"{fast}')
    finally:
        await conn.close()


async def _drop(admin_dsn: str, name: str) -> None:
    # FORCE terminates whatever connection a test left open first (PostgreSQL 13+).
    conn = await asyncpg.connect(admin_dsn)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


async def _migrate(url: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        await migrate(conn)
    finally:
        await conn.close()


def _run_in_thread(coro: Coroutine[Any, Any, None]) -> None:
    """Run `coro` to completion on its own loop in another thread.

    A session fixture runs between the tests' own loops; asyncio.run() in this thread would
    reset the thread's current loop under pytest-asyncio.
    """
    failure: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(coro)
        except BaseException as error:
            failure.append(error)

    thread = threading.Thread(target=run, name="pg-fixture")
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
