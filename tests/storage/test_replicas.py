"""Replicas on one database: heartbeats, a chat's send claim and daily pushes claimed with a
lease, on both engines."""

from __future__ import annotations

import asyncio
from datetime import date, timedelta

from bot.core.model import ChatKind, ChatRef, PushStatus, SlotDecision
from storage.postgres.leader import PostgresLeadership
from storage.postgres.store import PostgresStore
from storage.sql.store import SqlStore
from tests.storage.helpers import draft, utc

NOW = utc(2026, 12, 3, 9)
LEASE = timedelta(seconds=60)
DAY = date(2026, 12, 3)


async def pending_pushes(store: SqlStore, chats: int) -> None:
    """`chats` groups, each with a pending push for today's 09:00 slot."""
    async with store.transaction() as writes:
        for n in range(chats):
            await writes.upsert_chat(ChatRef(-100 - n, ChatKind.SUPERGROUP, f"g{n}"), NOW)
    for n in range(chats):
        await store.set_schedule(-100 - n, "09:00", NOW, DAY, NOW)
    await store.record_slots(
        [
            SlotDecision(-100 - n, DAY, NOW, PushStatus.PENDING, NOW + timedelta(days=1), DAY)
            for n in range(chats)
        ],
        NOW,
    )


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


async def test_pending_pushes_are_claimed_once_until_the_lease_runs_out(store: SqlStore) -> None:
    """Two replicas claim disjoint pushes, oldest first; expired claims are taken over."""
    await pending_pushes(store, 5)
    first = await store.claim_pushes("a", NOW, NOW + LEASE, 3)
    second = await store.claim_pushes("b", NOW, NOW + LEASE, 3)
    assert len(first) == 3
    assert len(second) == 2
    assert {p.chat_id for p in first}.isdisjoint({p.chat_id for p in second})
    assert await store.claim_pushes("b", NOW, NOW + LEASE, 3) == []
    later = NOW + LEASE
    retaken = await store.claim_pushes("b", later, later + LEASE, 10)
    assert len(retaken) == 5


async def test_a_new_leader_takes_over_its_predecessors_claims_at_once(store: SqlStore) -> None:
    """Releasing the claims of every other replica makes their pushes claimable now."""
    await pending_pushes(store, 4)
    await store.claim_pushes("old", NOW, NOW + LEASE, 3)
    await store.claim_pushes("new", NOW, NOW + LEASE, 1)
    assert await store.release_push_claims(keep="new") == 3
    taken = await store.claim_pushes("new", NOW, NOW + LEASE, 10)
    assert len(taken) == 3


async def test_sent_pushes_are_never_claimed_again(store: SqlStore) -> None:
    """A push marked sent is done, whatever its claim says."""
    await pending_pushes(store, 1)
    [push] = await store.claim_pushes("a", NOW, NOW + LEASE, 1)
    async with store.transaction() as writes:
        ask = await writes.create_ask(draft(push.chat_id, NOW))
    await store.mark_push_sent(push, ask.id, 42, NOW)
    assert await store.claim_pushes("b", NOW + LEASE, NOW + 2 * LEASE, 10) == []


async def test_concurrent_claims_on_postgresql_never_share_a_push(
    pg_migrated_url: str,
) -> None:
    """Eight PostgreSQL connections claiming at once (SKIP LOCKED) split the pushes exactly."""
    stores = [await PostgresStore.open(pg_migrated_url, pool_size=2) for _ in range(2)]
    try:
        await pending_pushes(stores[0], 200)
        claims = await asyncio.gather(
            *(stores[n % 2].claim_pushes(f"r{n}", NOW, NOW + LEASE, 30) for n in range(8))
        )
        taken = [(p.chat_id, p.local_day) for batch in claims for p in batch]
        assert len(taken) == len(set(taken)) == 200
    finally:
        for store in stores:
            await store.close()


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
