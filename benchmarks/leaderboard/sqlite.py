"""Leaderboard latency on a big database: `python -m benchmarks.leaderboard.sqlite`.

Fills a fresh database through the real schema (the trigger on `answers` keeps `period_scores`)
with a year of answers over many chats, one of them much larger than the rest, then times the
week, month and all-time boards of the largest chat and a `/me` summary through
`SqliteStore` (`top` and `standing`), the way the bot calls them.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import sqlite3
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from random import Random
from typing import Any
from zoneinfo import ZoneInfo

from bot.core.model import PeriodKind
from bot.core.rules.periods import period_range, period_start
from storage.sql.rows import from_ms, to_ms
from storage.sqlite import SqliteStore
from storage.sqlite.db import SqliteDatabase as Database

NOW = datetime(2026, 11, 29, 20, 0, tzinfo=UTC)  # a Sunday evening: the week is nearly full
SPAN = timedelta(days=365)
LARGEST_SHARE = 0.17
LARGEST_MEMBERS = 3000
USERS = 20_000
ZONES = ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "UTC", "Asia/Tokyo"]
BATCH = 100_000
Row = tuple[int, int, int, int, int, int, int, int]


def chat_sizes(answers: int, chats: int) -> list[int]:
    """The largest chat gets 17% of the answers; the rest follow a Zipf-like curve."""
    largest = round(answers * LARGEST_SHARE)
    weights = [1 / (rank**0.8) for rank in range(1, chats)]
    total = sum(weights)
    rest = [max(1, int((answers - largest) * w / total)) for w in weights]
    rest[0] += answers - largest - sum(rest)
    return [largest, *rest]


class _Period:
    """The start of the period an answer falls in; answers come in time order per chat."""

    def __init__(self, kind: PeriodKind, zone: ZoneInfo) -> None:
        self.kind, self.zone = kind, zone
        self.start, self.end = 0, -1

    def start_of(self, at: int) -> int:
        if not self.start <= at < self.end:
            begin, end = period_range(self.kind, from_ms(at), self.zone)
            self.start, self.end = to_ms(begin), to_ms(end)
        return self.start


def chat_answers(
    rng: Random, chat_id: int, size: int, members: list[int], zone: ZoneInfo, first_ask: int
) -> Iterator[tuple[tuple[int, int, int], list[Row]]]:
    """The chat's asks in time order, each with its answers (each member at most once)."""
    per_ask = max(1, min(len(members), round(len(members) * 0.08)))
    asks = math.ceil(size / per_ask)
    spacing_ms = to_ms(NOW) - to_ms(NOW - SPAN)
    spacing_ms //= asks
    window_ms = min(3_600_000, spacing_ms // 2)
    skill = {user: rng.uniform(0.5, 0.9) for user in members}
    weeks, months = _Period(PeriodKind.WEEK, zone), _Period(PeriodKind.MONTH, zone)
    left = size
    for index in range(asks):
        ask_id = first_ask + index
        asked_at = to_ms(NOW - SPAN) + index * spacing_ms
        users = rng.sample(members, min(per_ask, left))
        left -= len(users)
        offsets = sorted(rng.randrange(max(1, window_ms)) for _ in users)
        rows: list[Row] = []
        for user, offset in zip(users, offsets, strict=True):
            at = asked_at + offset
            correct = int(rng.random() < skill[user])
            week, month = weeks.start_of(at), months.start_of(at)
            rows.append((ask_id, user, chat_id, 1 - correct, correct, at, week, month))
        yield (ask_id, chat_id, asked_at), rows


def fill(path: Path, answers: int, chats: int, seed: int) -> int:
    """Write the chats, users, asks and answers; returns the largest chat's id."""
    rng = Random(seed)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("PRAGMA cache_size = -262144")
    conn.execute("BEGIN")
    conn.executemany(
        "INSERT INTO users (id, first_name, last_name, username, updated_at) "
        "VALUES (?, ?, ?, ?, 0)",
        ((u, f"User{u}", f"Surname{u}" if u % 3 else None, f"user{u}") for u in range(1, USERS)),
    )
    chat_ids = [-1_000_000_000_000 - index for index in range(chats)]
    conn.executemany(
        "INSERT INTO chats (id, kind, title, timezone, created_at) "
        "VALUES (?, 'supergroup', ?, ?, 0)",
        ((cid, f"Chat {i}", ZONES[i % len(ZONES)]) for i, cid in enumerate(chat_ids)),
    )
    ask_rows: list[tuple[int, int, int]] = []
    answer_rows: list[Row] = []
    next_ask = 1
    for index, (chat_id, size) in enumerate(zip(chat_ids, chat_sizes(answers, chats), strict=True)):
        member_count = LARGEST_MEMBERS if index == 0 else max(2, min(3000, size // 60))
        members = rng.sample(range(1, USERS), member_count)
        zone = ZoneInfo(ZONES[index % len(ZONES)])
        for ask, rows in chat_answers(rng, chat_id, size, members, zone, next_ask):
            ask_rows.append(ask)
            answer_rows.extend(rows)
            next_ask = ask[0] + 1
        if len(answer_rows) >= BATCH or index == chats - 1:
            conn.executemany(
                "INSERT INTO asks (id, chat_id, deck_id, question_id, pass_no, option_order, "
                "asked_at, closed_at) VALUES (?, ?, 'deck', 'q', 1, '0,1,2,3', ?, NULL)",
                ask_rows,
            )
            conn.executemany(
                "INSERT INTO answers (ask_id, user_id, chat_id, position, correct, answered_at, "
                "week_start, month_start) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                answer_rows,
            )
            ask_rows, answer_rows = [], []
    conn.execute("COMMIT")
    conn.execute("ANALYZE")
    conn.close()
    return chat_ids[0]


async def _timed(call: Callable[[], Awaitable[object]], repeat: int) -> tuple[float, float]:
    for _ in range(max(10, repeat // 10)):
        await call()
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        await call()
        samples.append((time.perf_counter() - started) * 1000)
    samples.sort()
    return samples[len(samples) // 2], samples[min(len(samples) - 1, math.ceil(0.99 * repeat) - 1)]


async def check_against_rebuild(
    db: Database, boards: SqliteStore, chat_id: int, zone: ZoneInfo
) -> None:
    """The trigger's rows for the chat must equal a recount of its answers in Python."""
    query = (
        "SELECT period, period_start, user_id, correct, answered, reached_at, streak, "
        "best_streak FROM period_scores WHERE chat_id = ? ORDER BY 1, 2, 3"
    )
    kept = [tuple(row) for row in await db.fetch_all(query, (chat_id,))]
    started = time.perf_counter()
    await boards.rebuild_chat(chat_id, partial(_bounds, zone=zone))
    took = time.perf_counter() - started
    if [tuple(row) for row in await db.fetch_all(query, (chat_id,))] != kept:
        raise SystemExit("period_scores kept by the trigger differ from a recount")
    print(f"trigger rows ({len(kept):,}) match a recount; rebuild_chat took {took:.1f} s")


def _bounds(kind: PeriodKind, moment: datetime, zone: ZoneInfo) -> tuple[datetime, datetime]:
    return period_range(kind, moment, zone)


async def measure(path: Path, chat_id: int, repeat: int) -> None:
    db = await Database.open(path)
    boards = await SqliteStore.open(path)
    try:
        await measure_on(db, boards, chat_id, repeat)
    finally:
        await boards.close()
        await db.close()


async def measure_on(db: Any, boards: Any, chat_id: int, repeat: int) -> None:
    """Time the boards of `chat_id` through `boards` (a SqliteStore or PostgresStore); `db`
    runs the two set-up reads and the recount check (its `?` placeholders work on both)."""
    row = await db.fetch_one("SELECT timezone FROM chats WHERE id = ?", (chat_id,))
    zone = ZoneInfo(row[0] if row and row[0] else "UTC")
    size = await db.fetch_one(
        "SELECT count(*), count(DISTINCT user_id) FROM answers WHERE chat_id = ?", (chat_id,)
    )
    assert size is not None
    print(
        f"largest chat: {size[0]:,} answers, {size[1]:,} members, {zone.key}; "
        f"now = {NOW:%Y-%m-%d %H:%M} UTC"
    )
    print(f"{'call':<28}{'board rows':>11}{'viewer rank':>13}{'p50 ms':>9}{'p99 ms':>9}")
    for kind in PeriodKind:
        start = period_start(kind, NOW, zone)
        # The last-ranked user: the worst case for counting who is ahead of the viewer.
        full = await boards.top(chat_id, kind, start, 1_000_000)
        viewer = full[-1].player.id
        standing = await boards.standing(chat_id, kind, start, viewer)
        assert standing is not None
        rank = standing.ahead + 1
        board = partial(_board, boards, chat_id, kind, start, viewer)
        p50, p99 = await _timed(board, repeat)
        label = f"top {kind.value} + viewer"
        print(f"{label:<28}{len(full):>11}{rank:>13}{p50:>9.2f}{p99:>9.2f}")

    week_start = period_start(PeriodKind.WEEK, NOW, zone)
    summary = partial(_summary, boards, chat_id, viewer, week_start)
    p50, p99 = await _timed(summary, repeat)
    print(f"{'player_summary (/me)':<28}{'':>11}{rank:>13}{p50:>9.2f}{p99:>9.2f}")
    await check_against_rebuild(db, boards, chat_id, zone)


async def _board(
    boards: SqliteStore, chat_id: int, kind: PeriodKind, start: datetime, viewer: int
) -> object:
    """A board as the bot shows it: the top ten and the viewer's own standing."""
    return await boards.top(chat_id, kind, start, 10), await boards.standing(
        chat_id, kind, start, viewer
    )


async def _summary(boards: SqliteStore, chat_id: int, viewer: int, week_start: datetime) -> object:
    """`/me`: the all-time standing (points, streaks, rank) and this week's."""
    overall = await boards.standing(chat_id, PeriodKind.ALL, week_start, viewer)
    return overall, await boards.standing(chat_id, PeriodKind.WEEK, week_start, viewer)


async def create(path: Path) -> None:
    """A new database file with every migration applied, the trigger included."""
    db = await Database.open(path)
    await db.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--answers", type=int, default=1_000_000)
    parser.add_argument("--chats", type=int, default=2000)
    parser.add_argument("--db", type=Path, help="database file to create (default: a temp dir)")
    parser.add_argument("--repeat", type=int, default=500, help="timed calls per board")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--database",
        choices=("sqlite", "postgres"),
        default="sqlite",
        help="postgres: a throwaway PostgreSQL server (or $QUIZBOT_TEST_PG_DSN), filled by COPY",
    )
    args = parser.parse_args(argv)
    if args.database == "postgres":
        from benchmarks.leaderboard.postgres import run

        run(args.answers, args.chats, args.seed, args.repeat)
        return
    with tempfile.TemporaryDirectory(prefix="quizbot-bench-") as scratch:
        path: Path = args.db or Path(scratch) / "bench.sqlite3"
        if path.exists():
            parser.error(f"{path} exists; the benchmark needs a fresh file")
        asyncio.run(create(path))
        started = time.perf_counter()
        chat_id = fill(path, args.answers, args.chats, args.seed)
        print(
            f"filled {args.answers:,} answers over {args.chats:,} chats "
            f"in {time.perf_counter() - started:.1f} s ({path.stat().st_size / 2**20:.0f} MiB)"
        )
        asyncio.run(measure(path, chat_id, args.repeat))


if __name__ == "__main__":
    main()
