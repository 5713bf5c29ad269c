"""A round's topic (`/quiz N TOPIC`) is stored with it and read back, across a reopen."""

from __future__ import annotations

from bot.core.model import ChatKind, ChatRef, RoundEnd
from tests.storage.helpers import ALICE, open_store, utc

NOW = utc(2026, 12, 2, 9, 30)
CHAT = ChatRef(-100123, ChatKind.SUPERGROUP, "Study group")


async def test_a_round_keeps_its_topic_and_others_have_none(backend: str, database: str) -> None:
    """The topic given to start_round comes back from get_round and running_round, also after
    the database is reopened (a restart); a round started without one has None."""
    store = await open_store(backend, database)
    try:
        async with store.transaction() as writes:
            await writes.upsert_chat(CHAT, NOW)
            started = await writes.start_round(CHAT.id, 7, ALICE.id, 3, NOW, topic="nccl")
        assert started is not None
        assert started.topic == "nccl"
    finally:
        await store.close()
    store = await open_store(backend, database)
    try:
        assert await store.get_round(started.id) == started
        assert await store.running_round(CHAT.id) == started
        async with store.transaction() as writes:
            await writes.end_round(started.id, RoundEnd.FINISHED, NOW)
            plain = await writes.start_round(CHAT.id, None, ALICE.id, 2, NOW)
        assert plain is not None
        assert plain.topic is None
        assert (await store.get_round(plain.id)) == plain
    finally:
        await store.close()
