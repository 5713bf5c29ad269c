"""Leaderboard latency on PostgreSQL: `python -m benchmarks.leaderboard.postgres`.

The same data and the same timed calls as `benchmarks.leaderboard.sqlite` (its `chat_sizes`,
`chat_answers` and `measure_on`), on a fresh PostgreSQL database with every migration: the rows
go in by COPY, which fires the row triggers on `answers` (so `period_scores` is kept by the
trigger, as on the answer path), then `ANALYZE`. The calls go through `PostgresStore`
(`top`, `standing`): a pool, a round trip over loopback TCP each. Also
`python -m benchmarks.leaderboard.sqlite --database postgres`.

The calls are timed twice on the same data: with the server's default `plan_cache_mode`
(asyncpg prepares each statement, so after five runs PostgreSQL may use a generic plan) and with
`force_custom_plan` set on the database (a diagnosis: the bot does not set it).
"""

from __future__ import annotations

import argparse
import asyncio
import time
from random import Random
from zoneinfo import ZoneInfo

import asyncpg

from benchmarks.harness.pg import create_database, pg_admin
from benchmarks.leaderboard.sqlite import (
    LARGEST_MEMBERS,
    USERS,
    ZONES,
    chat_answers,
    chat_sizes,
    measure_on,
)
from storage.postgres.db import PostgresDatabase
from storage.postgres.store import PostgresStore

BATCH = 100_000
ANSWER_COLUMNS = (
    "ask_id", "user_id", "chat_id", "position", "correct", "answered_at", "week_start",
    "month_start",
)  # fmt: skip


async def fill(url: str, answers: int, chats: int, seed: int) -> int:
    """The same rows as `benchmarks.leaderboard.sqlite.fill`; returns the largest chat's id."""
    rng = Random(seed)
    conn = await asyncpg.connect(url)
    try:
        await conn.copy_records_to_table(
            "users",
            records=[
                (u, f"User{u}", f"Surname{u}" if u % 3 else None, f"user{u}", 0)
                for u in range(1, USERS)
            ],
            columns=("id", "first_name", "last_name", "username", "updated_at"),
        )
        chat_ids = [-1_000_000_000_000 - index for index in range(chats)]
        await conn.copy_records_to_table(
            "chats",
            records=[
                (cid, "supergroup", f"Chat {i}", ZONES[i % len(ZONES)], 0)
                for i, cid in enumerate(chat_ids)
            ],
            columns=("id", "kind", "title", "timezone", "created_at"),
        )
        ask_rows: list[tuple[object, ...]] = []
        answer_rows: list[tuple[int, ...]] = []
        next_ask = 1
        sizes = chat_sizes(answers, chats)
        for index, (chat_id, size) in enumerate(zip(chat_ids, sizes, strict=True)):
            member_count = LARGEST_MEMBERS if index == 0 else max(2, min(3000, size // 60))
            members = rng.sample(range(1, USERS), member_count)
            zone = ZoneInfo(ZONES[index % len(ZONES)])
            for ask, rows in chat_answers(rng, chat_id, size, members, zone, next_ask):
                ask_id, ask_chat, asked_at = ask
                ask_rows.append((ask_id, ask_chat, "deck", "q", 1, "0,1,2,3", asked_at, None))
                answer_rows.extend(rows)
                next_ask = ask_id + 1
            if len(answer_rows) >= BATCH or index == chats - 1:
                async with conn.transaction():
                    await conn.copy_records_to_table(
                        "asks",
                        records=ask_rows,
                        columns=(
                            "id",
                            "chat_id",
                            "deck_id",
                            "question_id",
                            "pass_no",
                            "option_order",
                            "asked_at",
                            "closed_at",
                        ),
                    )
                    await conn.copy_records_to_table(
                        "answers", records=answer_rows, columns=ANSWER_COLUMNS
                    )
                ask_rows, answer_rows = [], []
        await conn.execute("VACUUM ANALYZE")
        return chat_ids[0]
    finally:
        await conn.close()


async def _measure(url: str, chat_id: int, repeat: int) -> None:
    db = await PostgresDatabase.open(url, pool_size=2)
    boards = await PostgresStore.open(url, pool_size=2)
    try:
        await measure_on(db, boards, chat_id, repeat)
    finally:
        await boards.close()
        await db.close()


async def _custom_plans(url: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        name = await conn.fetchval("SELECT current_database()")
        await conn.execute(f'ALTER DATABASE "{name}" SET plan_cache_mode = force_custom_plan')
        # The recount check rewrote the chat's score rows, and the throwaway server runs
        # without autovacuum: vacuum again so both passes read the same clean table.
        await conn.execute("VACUUM ANALYZE")
    finally:
        await conn.close()


async def _size(url: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        size: int = await conn.fetchval("SELECT pg_database_size(current_database())")
        return size
    finally:
        await conn.close()


def run(answers: int, chats: int, seed: int, repeat: int) -> None:
    with pg_admin() as admin:
        url = asyncio.run(create_database(admin, "quizbot_boards"))
        started = time.perf_counter()
        chat_id = asyncio.run(fill(url, answers, chats, seed))
        size = asyncio.run(_size(url))
        print(
            f"PostgreSQL: filled {answers:,} answers over {chats:,} chats "
            f"in {time.perf_counter() - started:.1f} s ({size / 2**20:.0f} MiB)"
        )
        print("\nplan_cache_mode = auto (the server's default):")
        asyncio.run(_measure(url, chat_id, repeat))
        # asyncpg prepares every statement; after five runs PostgreSQL may switch to a generic
        # plan, estimated for an average chat (~50 rows), not the largest (~3,000). The same
        # calls with a custom plan each time, set for the database (new connections):
        asyncio.run(_custom_plans(url))
        print("\nplan_cache_mode = force_custom_plan (ALTER DATABASE … SET, benchmark only):")
        asyncio.run(_measure(url, chat_id, repeat))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--answers", type=int, default=1_000_000)
    parser.add_argument("--chats", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=500, help="timed calls per board")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    run(args.answers, args.chats, args.seed, args.repeat)


if __name__ == "__main__":
    main()
