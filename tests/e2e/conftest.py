"""End-to-end fixtures: the real PTB Application against the fake Bot API on 127.0.0.1."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from random import Random

import pytest
from pydantic import SecretStr

from bot.app import RunningBot, running_bot
from bot.config import Settings
from bot.playground.botapi import BotApiServer, FakeChat, FakeUser
from tests.e2e.helpers.webhook import free_port, webhook_settings
from tests.fakes.clock import FakeClock

ALICE = FakeUser(1001, "Alice", "Liddell", "alice")
BOB = FakeUser(1002, "Bob")

StartBot = Callable[[], AbstractAsyncContextManager[RunningBot]]
StartHooked = StartBot


@pytest.fixture
async def fake() -> AsyncIterator[BotApiServer]:
    async with BotApiServer() as api:
        yield api


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def database(tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """A SQLite file; or, with QUIZBOT_TEST_E2E_POSTGRES=1, a fresh PostgreSQL database (to run
    the whole end-to-end suite on PostgreSQL by hand)."""
    if os.environ.get("QUIZBOT_TEST_E2E_POSTGRES") == "1":
        return str(request.getfixturevalue("pg_migrated_url"))
    return str(tmp_path / "data" / "quizbot.sqlite3")


@pytest.fixture
def settings(fake: BotApiServer, database: str) -> Settings:
    return Settings(
        telegram_bot_token=SecretStr(fake.token),
        database=database,
        api_base_url=fake.url,  # type: ignore[arg-type]
        # The fake enforces no limits unless a test turns them on; pacing at Telegram's real
        # 1 message/s per private chat would only slow these tests down.
        rate_limit_scale=1000,
        # The five-question seed deck keeps these tests' rounds and passes short.
        default_deck="nca-multi-gpu-5",
        _env_file=None,
    )


@pytest.fixture
def start_bot(settings: Settings, clock: FakeClock, fake: BotApiServer) -> StartBot:
    """Starts the bot (again, for a restart) on the same database and fake server."""

    @asynccontextmanager
    async def start() -> AsyncIterator[RunningBot]:
        async with running_bot(settings, clock=clock, poll_timeout=1, rng=Random(7)) as running:
            await wait_for_polling(fake)
            with fake.busy_while(lambda: handling_updates(running)):
                yield running

    return start


@pytest.fixture
async def bot(start_bot: StartBot) -> AsyncIterator[RunningBot]:
    async with start_bot() as running:
        yield running


@pytest.fixture
def port() -> int:
    return free_port()


@pytest.fixture
def base(port: int) -> str:
    return f"http://127.0.0.1:{port}"


@pytest.fixture
def hook_settings(fake: BotApiServer, tmp_path: Path, port: int) -> Settings:
    return webhook_settings(fake, tmp_path, port)


@pytest.fixture
def start_hooked(hook_settings: Settings, clock: FakeClock, fake: BotApiServer) -> StartHooked:
    """Starts the bot in webhook mode (again, for a restart) on the same database."""
    fake.webhook.retry_delay = 0.01

    @asynccontextmanager
    async def start() -> AsyncIterator[RunningBot]:
        async with running_bot(hook_settings, clock=clock, rng=Random(7)) as running:
            with fake.busy_while(lambda: handling_updates(running)):
                yield running

    return start


@pytest.fixture
async def hooked(start_hooked: StartHooked) -> AsyncIterator[RunningBot]:
    async with start_hooked() as running:
        yield running


def handling_updates(running: RunningBot) -> bool:
    """The bot has updates fetched but not yet handled (the network shows none of this)."""
    app = running.app
    return app.update_queue.qsize() > 0 or app.update_processor.current_concurrent_updates > 0


async def wait_for_polling(fake: BotApiServer, timeout: float = 5.0) -> None:  # noqa: ASYNC109
    """Until the bot's first long poll has reached the fake (it stays open, so not answered)."""
    await fake.wait_until(
        lambda: bool(fake.calls_to("getUpdates")), timeout, what="the bot to start polling"
    )


def alice_private() -> FakeChat:
    return FakeChat.private(ALICE)
