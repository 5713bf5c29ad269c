"""Two replicas of the real bot in webhook mode on one PostgreSQL database behind the fake."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

import bot.app
from bot.playground.botapi import BotApiServer
from tests.e2e.replicas.helpers import RecordingLeaderLoop, Replica, beaten, replica
from tests.fakes.clock import FakeClock


@pytest.fixture(autouse=True)
def _record_leader_loops(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot.app, "LeaderLoop", RecordingLeaderLoop)
    monkeypatch.setattr(RecordingLeaderLoop, "made", [])


@pytest.fixture
async def pair(
    fake: BotApiServer, pg_migrated_url: str, clock: FakeClock
) -> AsyncIterator[list[Replica]]:
    """Two replicas on one database; the fake delivers round-robin to both."""
    fake.webhook.retry_delay = 0.01
    async with (
        replica(fake, pg_migrated_url, clock, 1) as first,
        replica(fake, pg_migrated_url, clock, 2) as second,
    ):
        fake.webhook.replicas = [first.url, second.url]
        both = [first, second]
        await beaten(both)
        yield both
