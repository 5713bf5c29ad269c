"""Replicas on one database: heartbeats, a chat's send claim and daily pushes claimed with a
lease, on both engines."""

from __future__ import annotations

import asyncio
from datetime import date, timedelta

from storage.postgres.leader import PostgresLeadership
from storage.sql.store import SqlStore
from tests.storage.helpers import utc

NOW = utc(2026, 12, 3, 9)
LEASE = timedelta(seconds=60)
DAY = date(2026, 12, 3)


async def test_heartbeats_count_the_replicas_seen_lately(store: SqlStore) -> None:
    """A replica counts while it beats; one that stopped beating or retired does not."""
    assert await store.heartbeat("a", NOW, NOW - timedelta(seconds=3)) == 1
    assert await store.heartbeat("b", NOW, NOW - timedelta(seconds=3)) == 2
    later = NOW + timedelta(seconds=5)
    assert await store.heartbeat("a", later, later - timedelta(seconds=3)) == 1
    await store.retire("a")
    assert await store.heartbeat("c", later, later - timedelta(seconds=3)) == 1


async def test_a_chat_is_claimed_by_one_replica_until_released_or_expired(store: SqlStore) -> None:
    """The holder renews its claim; another replica gets the chat only after release or expiry."""
    until = NOW + timedelta(seconds=30)
    assert await store.claim_chat(-1, "a", NOW, until)
    assert not await store.claim_chat(-1, "b", NOW, until)
    assert await store.claim_chat(-1, "a", NOW, until)  # renewed
    assert await store.claim_chat(-2, "b", NOW, until)  # another chat is free
    await store.release_chat(-1, "b")  # not b's to release
    assert not await store.claim_chat(-1, "b", NOW, until)
    assert await store.claim_chat(-1, "b", until, until + timedelta(seconds=30))  # expired
    await store.release_chat(-1, "b")
    assert await store.claim_chat(-1, "a", until, until + timedelta(seconds=30))


async def test_one_leader_at_a_time_and_the_next_takes_over_when_it_dies(
    pg_migrated_url: str,
) -> None:
    """The advisory lock admits one leader; when its session dies another gets it within 5 s
    (the server ends the dead session as soon as it sees the connection closed)."""
    first, second = PostgresLeadership(pg_migrated_url), PostgresLeadership(pg_migrated_url)
    try:
        assert await first.hold()
        assert not await second.hold()
        assert await first.hold()  # kept
        first._conn.terminate()  # type: ignore[union-attr]  # the leader's process dies
        for _ in range(50):  # a replica checks about once a second; here every 0.1 s
            if await second.hold():
                break
            await asyncio.sleep(0.1)
        assert await second.hold()
        assert not await first.hold()
    finally:
        await first.resign()
        await second.resign()


async def test_the_chat_claims_of_a_replica_that_died_are_released(store: SqlStore) -> None:
    """Claims held by replicas not seen lately go; a live replica's claims stay."""
    until = NOW + timedelta(seconds=30)
    await store.heartbeat("dead", NOW - timedelta(seconds=10), NOW)
    await store.heartbeat("alive", NOW, NOW)
    assert await store.claim_chat(-1, "dead", NOW, until)
    assert await store.claim_chat(-2, "alive", NOW, until)
    assert await store.release_dead_claims(NOW - timedelta(seconds=3)) == 1
    assert await store.claim_chat(-1, "alive", NOW, until)
    assert not await store.claim_chat(-2, "other", NOW, until)
