"""Fairness between groups: `python -m benchmarks.group_fairness`.

Group A (a forum supergroup) is busy: ``--a-commands`` members each send `/quiz` at once, each
in a topic of their own (a bot may keep one open question per topic, so every one of them is
owed a question), so the bot owes A more messages than Telegram's 20 per minute per group
allow; once 20 of them have reached the fake, A's window is full and the rest wait. Then one
member of group B (idle) sends `/quiz`; nobody answers it. B's question is open for ``--open``
seconds (``quiz_open_seconds``, which A's questions share), so its deadline is the arrival of
B's question + ``--open`` s, and the reveal is the ``editMessageText`` of that message that
leaves it without option buttons. Reported per repetition: B's reveal lateness = reveal
arrival − deadline (a fair bot: about its closing tick, ≤ ~1 s), how full A was at B's
deadline, and 429s. Each repetition uses a fresh fake, database and bot (Telegram's real limits
on both sides, ``--latency`` ms per call).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import time
from dataclasses import dataclass, field

from benchmarks import harness
from bot.playground.botapi import ApiCall, BotApiServer, FakeChat

GROUP_A = FakeChat.supergroup(-1_001_000_000_001, "Busy A", forum=True)
FIRST_TOPIC = 1_000  # A's k-th member writes in topic FIRST_TOPIC + k
GROUP_B = FakeChat.supergroup(-1_001_000_000_002, "Quiet B")
FIRST_A_MEMBER = 6_000_000
B_MEMBER = harness.member(7_000_001, "Bea")
GROUP_WINDOW = 60.0  # Telegram: 20 messages a minute per group
GROUP_LIMIT = harness.GROUP_PER_MINUTE


@dataclass
class Repetition:
    number: int
    b_question_after: float = 0.0  # B's /quiz → its question (s)
    lateness: float | None = None  # None: no reveal within the timeout
    a_sent_at_deadline: int = 0  # A's messages (sendMessage) that had arrived by B's deadline
    a_window_at_deadline: int = 0  # A's counted requests in the 60 s before the deadline
    a_owed_at_deadline: int = 0  # A's /quiz not yet answered by then
    a_edits_before_b: int = 0  # A's editMessageText arrivals before B's reveal
    rejected_429: int = 0
    warnings: int = 0
    first_warnings: list[str] = field(default_factory=list)
    stop_seconds: float = 0.0


def counted(call: ApiCall) -> bool:
    """Requests Telegram counts against a chat's window (send*, edit*, …), accepted."""
    return call.ok and call.method.startswith(("send", "edit", "copy", "forward", "stop"))


async def one(number: int, args: argparse.Namespace) -> Repetition:
    result = Repetition(number)
    log = harness.LogCounter()
    wait = args.open + args.timeout
    stack = contextlib.AsyncExitStack()
    fake: BotApiServer = await stack.enter_async_context(
        harness.bot_against_fake(args.latency, log, quiz_open_seconds=args.open)
    )
    try:
        since_a = len(fake.calls)
        for k in range(args.a_commands):
            user = harness.member(FIRST_A_MEMBER + k)
            fake.send_message(GROUP_A, user, "/quiz", thread_id=FIRST_TOPIC + k)
        sent_a = harness.sent_to(GROUP_A.id)
        await fake.wait_for_call(
            "sendMessage", sent_a, count=GROUP_LIMIT, since=since_a, timeout=30
        )
        since_b, asked = len(fake.calls), time.monotonic()
        fake.send_message(GROUP_B, B_MEMBER, "/quiz")
        question = await fake.wait_for_call(
            "sendMessage", lambda c: harness.is_question(c, GROUP_B.id), since=since_b, timeout=wait
        )
        result.b_question_after = question.time - asked
        deadline = question.time + args.open
        b_message = harness.message_id(question)

        def reveal(call: ApiCall) -> bool:
            return (
                call.ok
                and harness.chat_of(call) == GROUP_B.id
                and str(call.params.get("message_id")) == str(b_message)
                and not harness.answer_buttons(call.result)
            )

        try:
            found = await fake.wait_for_call("editMessageText", reveal, since=since_b, timeout=wait)
            result.lateness = found.time - deadline
            revealed_at = found.time
        except TimeoutError:
            revealed_at = time.monotonic()
        calls_a = [c for c in fake.calls[since_a:] if harness.chat_of(c) == GROUP_A.id]
        result.a_sent_at_deadline = sum(
            1 for c in calls_a if c.method == "sendMessage" and c.ok and c.time <= deadline
        )
        result.a_window_at_deadline = sum(
            1 for c in calls_a if counted(c) and deadline - GROUP_WINDOW < c.time <= deadline
        )
        result.a_owed_at_deadline = max(0, args.a_commands - result.a_sent_at_deadline)
        result.a_edits_before_b = sum(
            1 for c in calls_a if c.method == "editMessageText" and c.time < revealed_at
        )
        result.rejected_429 = fake.rejected_429
    finally:
        stopping = time.monotonic()
        await stack.aclose()
        result.stop_seconds = time.monotonic() - stopping
        result.warnings, result.first_warnings = log.count, log.first[:3]
    return result


def report(runs: list[Repetition], args: argparse.Namespace, wall: float) -> list[str]:
    rows = [
        [
            str(r.number),
            "never" if r.lateness is None else f"{r.lateness:.1f}",
            f"{r.b_question_after * 1000:.0f}",
            f"{r.a_window_at_deadline}",
            f"{r.a_owed_at_deadline}",
            f"{r.a_edits_before_b}",
            f"{r.rejected_429}",
            f"{r.warnings}",
            f"{r.stop_seconds:.0f}",
        ]
        for r in runs
    ]
    header = [
        "rep",
        "B reveal late s",
        "B /quiz→question ms",
        "A in window",
        "A owed",
        "A edits first",
        "429s",
        "warn",
        "stop s",
    ]
    late = [r.lateness if r.lateness is not None else float("inf") for r in runs]
    return [
        *harness.table(header, rows),
        "",
        f"B reveal lateness, median of {len(runs)}: {harness.median(late):.1f} s "
        f"(never = no reveal within {args.open + args.timeout:g} s of B's question)",
        f"A: {args.a_commands} members sent /quiz at once, one topic each; 'A in window' = A's "
        f"accepted send/edit requests in the {GROUP_WINDOW:g} s before B's deadline "
        f"(limit {GROUP_LIMIT}); 'A owed' = A's /quiz still without a reply then; 'A edits "
        "first' = A's editMessageText that reached the fake before B's reveal; 'stop s' = "
        "leaving running_bot",
        f"questions open {args.open} s (quiz_open_seconds, both groups); took {wall:.0f} s",
        *(f"  | warning (rep {r.number}): {w}" for r in runs[:1] for w in r.first_warnings),
    ]


async def run(args: argparse.Namespace) -> int:
    for line in harness.describe_run(args.latency):
        print(line, flush=True)
    started = time.monotonic()
    runs = []
    for number in range(1, args.repeat + 1):
        result = await one(number, args)
        runs.append(result)
        late = "never" if result.lateness is None else f"{result.lateness:.1f} s"
        print(f"  repetition {number}: B's reveal late by {late}", flush=True)
    print()
    for line in report(runs, args, time.monotonic() - started):
        print(line)
    return 0


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.group_fairness",
        description=__doc__.split("\n\n")[0] if __doc__ else "",
    )
    parser.add_argument("--repeat", type=int, default=3, help="repetitions (3)")
    parser.add_argument("--a-commands", type=int, default=30, help="/quiz sent in A at once (30)")
    parser.add_argument("--open", type=int, default=10, help="quiz_open_seconds, ≥ 10 (10)")
    parser.add_argument("--timeout", type=float, default=300.0, help="give up on a reveal (300)")
    parser.add_argument(
        "--latency", type=float, default=harness.DEFAULT_LATENCY_MS, help="fake ms per call (20)"
    )
    args = parser.parse_args(argv)
    if args.repeat < 1 or args.a_commands <= GROUP_LIMIT or args.open < 10 or args.latency < 0:
        parser.error(f"need --repeat ≥ 1, --a-commands > {GROUP_LIMIT}, --open ≥ 10, --latency ≥ 0")
    return args


def main(argv: list[str] | None = None) -> int:
    return asyncio.run(run(parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
