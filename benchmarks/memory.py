"""Learner memory at scale: `python -m benchmarks.memory`.

1. Due cards on a big database: a fresh database (every migration applied by
   `SqliteStore.open`) is seeded with L learners × C cards in one deck (100,000 × 50 = 5,000,000
   cards by default), due times spread evenly over ±60 days around NOW. The seeding is raw SQL
   (`executemany` on a plain sqlite3 connection to the same file, one transaction, rows in
   primary-key order): a benchmark may write its fixture directly. Then `SqliteStore.due_cards(
   user, deck, NOW, 1)` (a learner's next due card), `due_count` and `next_due` are each timed
   for 10,000 random learners, one call at a time: p50/p95/p99/max in ms. Target: due_cards p99
   ≤ 5 ms.
2. The group answer path with and without the memory update (`benchmarks.harness.answer_path`):
   sustained answers/s of `QuizService.answer` with 64 concurrent pressers, with the real
   `Memory()` and with a no-op one, alternating A/B on fresh databases. Target: with memory
   ≥ 90% of without.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from random import Random

from benchmarks.harness import answer_path, median, percentile, table
from content.loader import DEFAULT_CONTENT_DIR, load_decks
from storage.sql.rows import to_ms
from storage.sqlite import SqliteStore

NOW = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
SPREAD = timedelta(days=60)
DECK = answer_path.DEFAULT_DECK
DAY_MS = 86_400_000
Row = tuple[int, str, str, int, float, float, int, int, int, int]


def card_rows(learners: int, question_ids: list[str], seed: int) -> Iterator[Row]:
    """Each learner's cards, in primary-key order; due uniform over NOW ± SPREAD."""
    rng = Random(seed)
    now_ms, spread_ms = to_ms(NOW), int(SPREAD.total_seconds() * 1000)
    for user_id in range(1, learners + 1):
        for question_id in question_ids:
            due = now_ms + rng.randrange(-spread_ms, spread_ms)
            stability = rng.uniform(0.5, 60.0)
            lapses = rng.randrange(1, 10)  # a card exists once its question was missed
            reviews = lapses + rng.randrange(0, 10)
            last_review = due - int(stability * DAY_MS)
            state = 3 if rng.random() < 0.2 else 2  # fsrs State.Relearning / Review
            yield (
                user_id,
                DECK,
                question_id,
                due,
                stability,
                rng.uniform(1.0, 10.0),
                state,
                last_review,
                reviews,
                lapses,
            )


def seed(path: Path, learners: int, question_ids: list[str], seed_no: int) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("PRAGMA cache_size = -262144")
        conn.execute("BEGIN")
        conn.executemany(
            "INSERT INTO cards (user_id, deck_id, question_id, due, stability, difficulty, state, "
            "last_review, reviews, lapses) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            card_rows(learners, sorted(question_ids), seed_no),
        )
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())


async def _timed(
    call: Callable[[int], Awaitable[object]], users: list[int], warmup: int
) -> list[float]:
    for user in users[:warmup]:
        await call(user)
    samples = []
    for user in users:
        started = time.perf_counter()
        await call(user)
        samples.append((time.perf_counter() - started) * 1000)
    return samples


async def due_latency(store: SqliteStore, learners: int, samples: int, seed_no: int) -> bool:
    rng = Random(seed_no + 1)
    calls: dict[str, Callable[[int], Awaitable[object]]] = {
        "due_cards(user, deck, now, 1)": lambda user: store.due_cards(user, DECK, NOW, 1),
        "due_count(user, deck, now)": lambda user: store.due_count(user, DECK, NOW),
        "next_due(user, deck)": lambda user: store.next_due(user, DECK),
    }
    rows, ok = [], True
    for name, call in calls.items():
        users = [rng.randint(1, learners) for _ in range(samples)]
        taken = await _timed(call, users, warmup=min(500, samples))
        p99 = percentile(taken, 0.99)
        if name.startswith("due_cards"):
            ok = p99 <= 5.0
        figures = [percentile(taken, share) for share in (0.50, 0.95, 0.99)] + [max(taken)]
        rows.append([name, f"{len(taken):,}", *(f"{value:.3f}" for value in figures)])
    print("\n".join(table(["call", "calls", "p50 ms", "p95 ms", "p99 ms", "max ms"], rows)))
    # Sanity: the next due card is the learner's earliest card, and it is due.
    for user in (1, learners):
        due = await store.due_cards(user, DECK, NOW, 1)
        first = await store.next_due(user, DECK)
        assert first is not None, user
        assert not due or due[0].due == first, (user, due, first)
    return ok


async def _open_and_time(path: Path, args: argparse.Namespace) -> bool:
    store = await SqliteStore.open(path)
    try:
        return await due_latency(store, args.learners, args.samples, args.seed)
    finally:
        await store.close()


def run_due(args: argparse.Namespace, path: Path) -> bool:
    deck = load_decks(DEFAULT_CONTENT_DIR)[DECK]
    question_ids = [question.id for question in deck.questions]
    if args.cards > len(question_ids):
        raise SystemExit(f"--cards {args.cards}: deck {DECK} has {len(question_ids)} questions")
    asyncio.run(_create(path))
    return _seed_and_time(args, path, question_ids[: args.cards])


async def _create(path: Path) -> None:
    """A new database file with every migration applied."""
    store = await SqliteStore.open(path)
    await store.close()


def _seed_and_time(args: argparse.Namespace, path: Path, question_ids: list[str]) -> bool:
    started = time.perf_counter()
    seed(path, args.learners, question_ids, args.seed)
    took = time.perf_counter() - started
    cards = args.learners * len(question_ids)
    print(
        f"seeded {cards:,} cards ({args.learners:,} learners × {len(question_ids)}) in "
        f"{took:.1f} s ({cards / took:,.0f} rows/s); database {_size(path) / 2**20:,.0f} MiB"
    )
    ok = asyncio.run(_open_and_time(path, args))
    print(f"due_cards p99 ≤ 5 ms: {'PASS' if ok else 'FAIL'}")
    return ok


def run_answers(args: argparse.Namespace) -> bool:
    results = asyncio.run(
        answer_path.alternate(
            args.reps,
            asks=args.asks,
            members=args.members,
            warmup_asks=args.warmup_asks,
            pressers=args.pressers,
            seed=args.seed,
        )
    )
    rates = {label: [r.rate for r in results if r.label == label] for label in ("memory", "no-op")}
    rows = [
        [label, f"{median(values):,.0f}", f"{min(values):,.0f}–{max(values):,.0f}"]
        for label, values in rates.items()
    ]
    print("\n".join(table(["answers/s", "median", "range"], rows)))
    ratio = median(rates["memory"]) / median(rates["no-op"])
    pairs = [a / b for a, b in zip(rates["memory"], rates["no-op"], strict=True)]
    print(
        f"with memory / without: {ratio:.1%} (per A/B pair: "
        f"{', '.join(f'{p:.1%}' for p in pairs)}); ≥ 90%: {'PASS' if ratio >= 0.9 else 'FAIL'}"
    )
    return ratio >= 0.9


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.memory", description=__doc__.splitlines()[0] if __doc__ else ""
    )
    parser.add_argument("--learners", type=int, default=100_000)
    parser.add_argument("--cards", type=int, default=50, help="cards per learner (≤ 86)")
    parser.add_argument("--samples", type=int, default=10_000, help="timed calls of each kind")
    parser.add_argument("--db", type=Path, help="database file to create (default: a temp dir)")
    parser.add_argument("--asks", type=int, default=40, help="group questions per answer run")
    parser.add_argument("--members", type=int, default=500, help="members pressing on each")
    parser.add_argument("--warmup-asks", type=int, default=4, help="untimed questions first")
    parser.add_argument("--pressers", type=int, default=64, help="concurrent pressers")
    parser.add_argument("--reps", type=int, default=3, help="A/B pairs")
    parser.add_argument("--only", choices=("due", "answers"), help="run one part only")
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}", flush=True)
    if args.only in (None, "due"):
        with tempfile.TemporaryDirectory(prefix="quizbot-bench-memory-") as scratch:
            path: Path = args.db or Path(scratch) / "memory.sqlite3"
            if path.exists():
                raise SystemExit(f"{path} exists; the benchmark needs a fresh file")
            run_due(args, path)
    if args.only in (None, "answers"):
        print(
            f"\ngroup answers: {args.asks} questions × {args.members} members per run, "
            f"{args.pressers} concurrent pressers, {args.reps} A/B pairs",
            flush=True,
        )
        run_answers(args)
    return 0  # targets are reported, not asserted


if __name__ == "__main__":
    raise SystemExit(main())
