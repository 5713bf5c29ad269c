"""Helpers for fault-injection tests: which call to break, and driving the clock until done."""

from __future__ import annotations

from collections.abc import Callable

from bot.app import RunningBot
from bot.playground.botapi import ApiError, BotApiServer, JsonDict
from bot.playground.botapi.faults import (
    NGINX_BAD_GATEWAY,
    Drop,
    Fault,
    Timeout,
    bad_gateway,
    internal_server_error,
    too_many_requests,
)
from tests.fakes.clock import FakeClock

# Every transient fault Telegram (or the network before it) can answer with.
TRANSIENT: dict[str, Fault] = {
    "502": bad_gateway(),
    "500": internal_server_error(),
    "nginx-502": NGINX_BAD_GATEWAY,
    "timeout": Timeout(hold=0.05),
    "dropped": Drop(),
    "reset": Drop(reset=True),
    "429": too_many_requests(1),
}
PERMANENT = ApiError(400, "Bad Request: PEER_ID_INVALID")


def has_buttons(params: JsonDict) -> bool:
    """A question being posted: it carries answer buttons (explanations carry `⚑ Report`)."""
    markup = params.get("reply_markup")
    rows = markup.get("inline_keyboard") if isinstance(markup, dict) else None
    buttons = [b for row in rows or [] for b in row if isinstance(b, dict)]
    return any(str(b.get("callback_data", "")).startswith("a:") for b in buttons)


def nth(count: int, matches: Callable[[JsonDict], bool]) -> Callable[[JsonDict], bool]:
    """A `when` predicate true for the `count`-th matching call only."""
    seen = 0

    def predicate(params: JsonDict) -> bool:
        nonlocal seen
        if not matches(params):
            return False
        seen += 1
        return seen == count

    return predicate


def text_has(fragment: str) -> Callable[[JsonDict], bool]:
    return lambda params: fragment in str(params.get("text", ""))


async def settle(fake: BotApiServer, running: RunningBot, clock: FakeClock, seconds: float) -> None:
    """Move time on by `seconds`, run one tick and wait until every send is done."""
    clock.advance(seconds=seconds)
    await running.ticker.tick()
    await running.sender.feed_until_quiet()
    await fake.idle()


async def drive(
    fake: BotApiServer,
    running: RunningBot,
    clock: FakeClock,
    done: Callable[[], bool],
    *,
    chat_id: int,
    step: float = 31,
    limit: int = 40,
) -> None:
    """Advance the clock in steps until `done()` and nothing is owed any more."""
    for _ in range(limit):
        await settle(fake, running, clock, step)
        if done() and not await running.store.pending_effects(chat_id, 1):
            return
    raise AssertionError("the chat never settled")
