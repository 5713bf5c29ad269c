"""Private-chat latency: `python -m benchmarks.private_latency`.

One user plays rounds (`/quiz N`) in a private chat with the bot, which runs against the fake Bot
API with Telegram's real limits (the fake enforces 1 message/s per private chat, the bot is told
scale 1) and ``--latency`` ms added to every Bot API call. After each question appears the user
thinks ``--think`` seconds (real time) and presses a random option; after the explanation
appears they think again and press its Next ▶. Measured, from the press being queued for the
bot's long poll to the request reaching the fake (when Telegram would have it):

* answer → toast: the press's ``answerCallbackQuery``;
* answer → explanation: the ``sendMessage`` in the chat that carries the explanation (and, but
  after a round's last question, its Next ▶ button);
* Next ▶ → next question: the ``sendMessage`` of the next question (two or more option buttons);
* /quiz N → first question, for each new round (sent right after the round's last explanation,
  which carries the summary, so it shows whether the chat's burst has room left).

A round is at most as long as the deck allows, so when an explanation comes without Next ▶ the
user starts another round, until ``--samples`` answers and Next presses have been timed.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from collections.abc import Callable

from benchmarks import harness
from bot.playground.botapi import ApiCall, BotApiServer, FakeChat

PLAYER = harness.member(5_000_001, "Pat")
WAIT_SECONDS = 30.0  # for any one reply before the run is given up


class Player:
    def __init__(self, fake: BotApiServer, args: argparse.Namespace) -> None:
        self.fake = fake
        self.args = args
        self.chat = FakeChat.private(PLAYER)
        self.rng = random.Random(args.seed)
        self.toast: list[float] = []
        self.explanation: list[float] = []
        self.next_question: list[float] = []
        self.first_question: list[float] = []
        self.rounds = 0

    def done(self) -> bool:
        return min(len(self.explanation), len(self.next_question)) >= int(self.args.samples)

    async def _reply(self, since: int, predicate: Callable[[ApiCall], bool]) -> ApiCall:
        return await self.fake.wait_for_call(
            "sendMessage", predicate, since=since, timeout=WAIT_SECONDS
        )

    async def start_round(self) -> ApiCall:
        since, pressed = len(self.fake.calls), time.monotonic()
        self.fake.send_message(self.chat, PLAYER, f"/quiz {self.args.round}")
        question = await self._reply(since, lambda c: harness.is_question(c, self.chat.id))
        self.first_question.append(question.time - pressed)
        self.rounds += 1
        return question

    async def answer(self, question: ApiCall) -> ApiCall:
        """Press an option; the explanation message the bot sent in reply."""
        data = self.rng.choice(harness.answer_buttons(question.result))
        since, pressed = len(self.fake.calls), time.monotonic()
        query_id = self.fake.press_button(self.chat, PLAYER, harness.message_id(question), data)
        sent = harness.sent_to(self.chat.id)
        explanation = await self._reply(
            since, lambda c: sent(c) and not harness.is_question(c, self.chat.id)
        )
        self.explanation.append(explanation.time - pressed)
        toast = await self.fake.wait_for_call(
            "answerCallbackQuery",
            lambda c: str(c.params.get("callback_query_id")) == query_id,
            since=since,
            timeout=WAIT_SECONDS,
        )
        self.toast.append(toast.time - pressed)
        return explanation

    async def next(self, explanation: ApiCall, data: str) -> ApiCall:
        since, pressed = len(self.fake.calls), time.monotonic()
        self.fake.press_button(self.chat, PLAYER, harness.message_id(explanation), data)
        question = await self._reply(since, lambda c: harness.is_question(c, self.chat.id))
        self.next_question.append(question.time - pressed)
        return question

    async def play(self) -> None:
        question = await self.start_round()
        while not self.done():
            await asyncio.sleep(self.args.think)
            explanation = await self.answer(question)
            next_button = harness.button_with(explanation.result, "Next")
            if self.done():
                break
            await asyncio.sleep(self.args.think)
            if next_button is None:  # the round is over (its summary follows): another one
                question = await self.start_round()
            else:
                question = await self.next(explanation, next_button)


def report(player: Player, fake: BotApiServer, log: harness.LogCounter, wall: float) -> list[str]:
    rows = []
    for label, values in (
        ("answer → toast (answerCallbackQuery)", player.toast),
        ("answer → explanation (sendMessage)", player.explanation),
        ("Next ▶ → next question (sendMessage)", player.next_question),
        ("/quiz N → first question of a round", player.first_question),
    ):
        s = harness.Summary.of(values)
        rows.append([label, str(s.n), harness.ms(s.p50), harness.ms(s.p95), harness.ms(s.max)])
    header = ["private chat, press → reply arrives", "n", "p50 ms", "p95 ms", "max ms"]
    lines = harness.table(header, rows)
    lines.append("")
    lines.append(
        f"rounds played: {player.rounds} (/quiz {player.args.round}); think time "
        f"{player.args.think:g} s; 429s from the fake: {fake.rejected_429}; "
        f"bot warnings/errors logged: {log.count}; took {wall:.0f} s"
    )
    lines += [f"  | {line}" for line in log.first]
    for label, values in (
        ("answer → explanation", player.explanation),
        ("Next ▶ → question", player.next_question),
    ):
        lines.append(f"raw ms, {label}: " + " ".join(harness.ms(v) for v in values))
    return lines


async def run(args: argparse.Namespace) -> int:
    for line in harness.describe_run(args.latency):
        print(line, flush=True)
    log = harness.LogCounter()
    started = time.monotonic()
    async with harness.bot_against_fake(args.latency, log) as fake:
        player = Player(fake, args)
        await player.play()
    print()
    for line in report(player, fake, log, time.monotonic() - started):
        print(line)
    return 0


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.private_latency",
        description=__doc__.split("\n\n")[0] if __doc__ else "",
    )
    parser.add_argument("--samples", type=int, default=20, help="answers and Next presses (20)")
    parser.add_argument("--round", type=int, default=5, help="round size, /quiz N (5: the deck)")
    parser.add_argument("--think", type=float, default=2.0, help="seconds before each press (2)")
    parser.add_argument(
        "--latency", type=float, default=harness.DEFAULT_LATENCY_MS, help="fake ms per call (20)"
    )
    parser.add_argument("--seed", type=int, default=1, help="which options are pressed (1)")
    args = parser.parse_args(argv)
    if args.samples < 1 or not 1 <= args.round <= 20 or args.think < 0 or args.latency < 0:
        parser.error("need --samples ≥ 1, 1 ≤ --round ≤ 20, --think ≥ 0, --latency ≥ 0")
    return args


def main(argv: list[str] | None = None) -> int:
    return asyncio.run(run(parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
