"""The outbox (`effects`) against a real database, on each engine."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import fields
from datetime import datetime, timedelta
from pathlib import Path

from bot.core.model import ChatKind, ChatRef, Effect, NewEffect
from storage.sql.effects import DUE_EFFECT_CHATS, PENDING_EFFECTS
from storage.sql.store import SqlStore
from storage.sqlite import SqliteStore
from tests.storage.helpers import Raw, draft, postgres_only, postgres_scans, utc

NOW = utc(2026, 12, 2, 9, 30)
CHAT = ChatRef(-100123, ChatKind.SUPERGROUP, "Study group")
OTHER = ChatRef(-100456, ChatKind.SUPERGROUP)


async def enqueue(store: SqlStore, *effects: NewEffect, at: datetime = NOW) -> None:
    async with store.transaction() as writes:
        for chat in (CHAT, OTHER):
            await writes.upsert_chat(chat, NOW)
        for effect in effects:
            await writes.enqueue(effect, at)


def as_new(effect: Effect) -> NewEffect:
    return NewEffect(**{field.name: getattr(effect, field.name) for field in fields(NewEffect)})


async def status(raw: Raw, effect: Effect) -> tuple[object, ...]:
    """The row's status, attempts, last error and whether it has a done_at."""
    [row] = await raw.peek(
        "SELECT status, attempts, last_error, done_at IS NOT NULL FROM effects WHERE id = ?",
        (effect.id,),
    )
    return row


async def test_enqueued_effects_come_back_pending_in_order_with_every_field(
    store: SqlStore,
) -> None:
    """Pending effects of a chat, oldest first, as enqueued, due at once (not_before = now)."""
    async with store.transaction() as writes:
        await writes.upsert_chat(CHAT, NOW)
        ask = await writes.create_ask(draft(CHAT.id, NOW))
        started = await writes.start_round(CHAT.id, 7, 1, 3, NOW)
        assert started is not None
        question = NewEffect(CHAT.id, "question", thread_id=7, ask_id=ask.id)
        explanation = NewEffect(
            CHAT.id,
            "explanation",
            thread_id=7,
            ask_id=ask.id,
            round_id=started.id,
            user_id=1,
            next_asked=2,
            message_id=55,
            text="Because.",
        )
        await writes.enqueue(question, NOW)
        await writes.enqueue(explanation, NOW)
    pending = await store.pending_effects(CHAT.id, 10)
    assert [as_new(effect) for effect in pending] == [question, explanation]
    assert pending[0].id < pending[1].id
    assert [(e.attempts, e.not_before) for e in pending] == [(0, NOW), (0, NOW)]
    assert [e.id for e in await store.pending_effects(CHAT.id, 1)] == [pending[0].id]
    assert await store.pending_effects(OTHER.id, 10) == []


async def test_a_kind_is_free_text_and_its_payload_comes_back_as_stored(store: SqlStore) -> None:
    """A new kind of owed message needs no schema change; its payload is a JSON object."""
    owed = NewEffect(CHAT.id, "a-kind-added-later", payload={"day": "2026-12-04", "n": [1, 2]})
    await enqueue(store, owed)
    (stored,) = await store.pending_effects(CHAT.id, 10)
    assert (stored.kind, dict(stored.payload), stored.bulk) == (
        owed.kind,
        dict(owed.payload),
        False,
    )


async def test_an_effect_whose_key_was_owed_before_is_not_owed_again(store: SqlStore) -> None:
    """`dedupe_key`: the second effect with a key is a no-op (False), the first stays."""
    first = NewEffect(CHAT.id, "notice", text="first", dedupe_key="once:1")
    await enqueue(store)
    async with store.transaction() as writes:
        assert await writes.enqueue(first, NOW)
        assert not await writes.enqueue(
            NewEffect(CHAT.id, "notice", text="2", dedupe_key="once:1"), NOW
        )
        await writes.enqueue_many(
            [NewEffect(CHAT.id, "notice", text="3", dedupe_key="once:1")], NOW
        )
    assert [e.text for e in await store.pending_effects(CHAT.id, 10)] == ["first"]


async def test_due_effect_chats_are_those_with_something_to_try_now(store: SqlStore) -> None:
    """Distinct chats with a pending effect whose time has come, the most overdue first."""
    await enqueue(store, NewEffect(OTHER.id, "notice", text="hi"))
    await enqueue(
        store,
        NewEffect(CHAT.id, "notice", text="a"),
        NewEffect(CHAT.id, "notice", text="b"),
        at=NOW + timedelta(seconds=1),
    )
    assert await store.due_effect_chats(NOW - timedelta(seconds=1), 10) == []
    assert await store.due_effect_chats(NOW, 10) == [OTHER.id]
    later = NOW + timedelta(seconds=1)
    assert await store.due_effect_chats(later, 10) == [OTHER.id, CHAT.id]
    assert await store.due_effect_chats(later, 1) == [OTHER.id]
    [other] = await store.pending_effects(OTHER.id, 10)
    async with store.transaction() as writes:
        await writes.effect_retry(other, "429", NOW + timedelta(minutes=1))
    assert await store.due_effect_chats(later, 10) == [CHAT.id]
    async with store.transaction() as writes:
        for effect in await store.pending_effects(CHAT.id, 10):
            await writes.effect_done(effect, later)
    assert await store.due_effect_chats(NOW + timedelta(minutes=1), 10) == [OTHER.id]


async def test_bulk_effects_are_due_to_the_bulk_feeder_only(store: SqlStore) -> None:
    """A chat owed only bulk messages is not among the interactive due chats, and back."""
    await enqueue(store, NewEffect(OTHER.id, "daily", bulk=True), NewEffect(CHAT.id, "notice"))
    assert await store.due_effect_chats(NOW, 10) == [CHAT.id]
    assert await store.due_effect_chats(NOW, 10, bulk=True) == [OTHER.id]


async def test_done_effects_end_with_what_their_kind_writes(store: SqlStore, raw: Raw) -> None:
    """effect_done marks the effect done (one more attempt), in a transaction or a grouped one,
    with what its kind writes beside it (a question's ask gets its message id)."""
    async with store.transaction() as writes:
        await writes.upsert_chat(CHAT, NOW)
        ask = await writes.create_ask(draft(CHAT.id, NOW))
        await writes.enqueue(NewEffect(CHAT.id, "question", ask_id=ask.id), NOW)
        await writes.enqueue(NewEffect(CHAT.id, "reveal", ask_id=ask.id), NOW)
    question, reveal = await store.pending_effects(CHAT.id, 10)
    async with store.transaction() as writes:
        await writes.effect_done(question, NOW)
        await writes.set_ask_message(ask.id, 901)
    await store.grouped(lambda writes: writes.effect_done(reveal, NOW))
    stored = await store.get_ask(ask.id)
    assert stored is not None
    assert stored.message_id == 901
    assert await status(raw, question) == ("done", 1, None, 1)
    assert await store.pending_effects(CHAT.id, 10) == []


async def test_retry_counts_the_attempt_and_waits(store: SqlStore, raw: Raw) -> None:
    """effect_retry keeps the effect pending with the error and a later not_before."""
    await enqueue(store, NewEffect(CHAT.id, "notice", text="hi"))
    [effect] = await store.pending_effects(CHAT.id, 10)
    later = NOW + timedelta(seconds=30)
    async with store.transaction() as writes:
        await writes.effect_retry(effect, "Too Many Requests", later)
    [again] = await store.pending_effects(CHAT.id, 10)
    assert (again.id, again.attempts, again.not_before) == (effect.id, 1, later)
    assert await status(raw, effect) == ("pending", 1, "Too Many Requests", 0)


async def test_failed_effects_are_given_up_grouped_and_in_a_transaction(
    store: SqlStore, raw: Raw
) -> None:
    """effect_failed (either way) marks it failed with the error, counted as an attempt."""
    await enqueue(
        store,
        NewEffect(CHAT.id, "notice", text="a"),
        NewEffect(CHAT.id, "summary", text="b"),
    )
    first, second = await store.pending_effects(CHAT.id, 10)
    await store.grouped(lambda writes: writes.effect_failed(first, "Bad Request", NOW))
    async with store.transaction() as writes:
        await writes.effect_failed(second, "message is too long", NOW)
    assert await store.pending_effects(CHAT.id, 10) == []
    assert await status(raw, first) == ("failed", 1, "Bad Request", 1)
    assert await status(raw, second) == ("failed", 1, "message is too long", 1)


async def test_drop_chat_effects_fails_the_chats_pending_ones_only(
    store: SqlStore, raw: Raw
) -> None:
    """Every pending effect of the chat is failed and counted; done ones and other chats stay."""
    await enqueue(
        store,
        NewEffect(CHAT.id, "notice", text="a"),
        NewEffect(CHAT.id, "notice", text="b"),
        NewEffect(CHAT.id, "notice", text="c"),
        NewEffect(OTHER.id, "notice", text="d"),
    )
    done, *rest = await store.pending_effects(CHAT.id, 10)
    await store.grouped(lambda writes: writes.effect_done(done, NOW))
    async with store.transaction() as writes:
        dropped = await writes.drop_chat_effects(CHAT.id, "bot was kicked", NOW)
        assert [e.id for e in dropped] == [e.id for e in rest]
        assert await writes.drop_chat_effects(CHAT.id, "bot was kicked", NOW) == []
    assert await raw.count("effects", "status = 'failed' AND last_error = 'bot was kicked'") == 2
    assert (await status(raw, done))[0] == "done"
    assert len(await store.pending_effects(OTHER.id, 10)) == 1


async def test_effect_queries_are_served_by_partial_indexes(db_path: Path) -> None:
    """SQLite reads a chat's queue and the due chats from the partial indexes of pending rows."""
    store = await SqliteStore.open(db_path)
    await store.close()
    with closing(sqlite3.connect(db_path)) as conn:
        for sql, params, index in (
            (PENDING_EFFECTS, (1, 10), "effects_pending_by_chat"),
            (DUE_EFFECT_CHATS.sqlite, (0, 0, 10), "effects_pending_due"),
        ):
            plan = " ".join(row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}", params))
            assert f"INDEX {index}" in plan, plan


@postgres_only
async def test_effect_queries_are_served_by_partial_indexes_on_postgres(raw: Raw) -> None:
    """PostgreSQL, with the statistics of a busy outbox (most rows done, a few pending due),
    reads a chat's queue and the due chats from the same partial indexes, in the plan for
    the given values and in the generic one."""
    await raw.execute(
        "INSERT INTO chats (id, kind, created_at) "
        "SELECT -c, 'supergroup', 0 FROM generate_series(1, 100) AS c"
    )
    await raw.execute(
        "INSERT INTO effects (chat_id, kind, status, not_before, created_at) "
        "SELECT -(1 + n % 100), 'notice', CASE WHEN n % 50 = 0 THEN 'pending' ELSE 'done' END, "
        "n, n FROM generate_series(1, 5000) AS n"
    )
    await raw.execute("ANALYZE effects")
    for sql, params, index in (
        (PENDING_EFFECTS, (-5, 10), "effects_pending_by_chat"),
        (DUE_EFFECT_CHATS.postgres, (0, 500, 10), "effects_pending_due"),
    ):
        scans = await postgres_scans(raw, sql, params)
        assert scans == {"custom": [index], "generic": [index]}, sql
