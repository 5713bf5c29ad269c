"""SlidingWindowRateLimiter: windows, priorities and 429 retries, on a fake clock and for real."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from telegram.error import RetryAfter
from telegram.ext import ApplicationBuilder

from bot.playground.botapi import BotApiServer, RateLimits
from bot.transport.ratelimit import SendingStopped, SlidingWindowRateLimiter
from bot.transport.request import AiohttpRequest
from tests.bot.transport.ratelimit.harness import FakeTime, Harness, busiest


@pytest.fixture
def h() -> Harness:
    return Harness()


class TickingTime(FakeTime):
    """Each clock reading takes 0.1 ms and a sleep ends 0.15 ms early, as asyncio's may (by
    up to its clock resolution): a deadline can fall between two readings of one pass."""

    TICK, EARLY = 1e-4, 1.5e-4

    def clock(self) -> float:
        now = self.now
        self.now += self.TICK
        return now

    async def sleep(self, delay: float) -> None:
        await super().sleep(delay - self.EARLY)


async def test_burst_to_distinct_chats_stays_within_30_per_second(h: Harness) -> None:
    """100 sends at once to 100 private chats: ≤30 in any second, all through at ≈30/s."""
    await h.time.run(*(h.send(chat) for chat in range(1, 101)))
    assert len(h.calls) == 100
    assert busiest(h.times(), 1.0) == 30
    assert h.times()[:30] == [0.0] * 30
    assert 3.0 < max(h.times()) < 3.2


async def test_private_chat_bursts_three_then_waits_without_blocking_others(h: Harness) -> None:
    """Five sends to one private chat: three at once, two when the 3 s window moves on."""
    busy = [asyncio.ensure_future(h.send(7)) for _ in range(5)]
    await h.time.run(h.send(8), h.send(9))
    assert h.times(8) == h.times(9) == [0.0]
    await h.time.run(*busy)
    assert h.times(7)[:3] == [0.0] * 3
    assert all(3.0 < t < 3.01 for t in h.times(7)[3:])


async def test_slot_freeing_between_clock_readings_admits_the_waiter_at_once() -> None:
    """A deadline passed between two clock readings is acted on at once, with no idle cap."""
    h = Harness(time=TickingTime())
    await h.time.run(*(h.send(7) for _ in range(4)))
    assert h.times(7)[2] < 0.001
    assert 3.003 < h.times(7)[3] < 3.005  # as the first slot frees: no idle cap


async def test_an_earlier_deadline_wakes_the_sleeping_dispatcher(h: Harness) -> None:
    """A waiter due sooner than the one the dispatcher sleeps for is admitted on time."""
    h.make(scale=10)  # windows: 0.1 s overall, 0.3 s private, 6 s group
    group = [asyncio.ensure_future(h.send(-100)) for _ in range(21)]
    await h.time.advance(0.1)
    await h.time.run(*(h.send(7) for _ in range(4)))
    assert h.times(7)[3] == pytest.approx(0.1 + 0.3003)
    await h.time.run(*group)
    assert h.times(-100)[20] == pytest.approx(6.006)


async def test_private_chat_averages_one_per_second(h: Harness) -> None:
    """30 sends to one private chat: never more than 3 in 3 s, all through in about 27 s."""
    await h.time.run(*(h.send(7) for _ in range(30)))
    assert busiest(h.times(7), 3.0) == 3
    assert 27.0 < max(h.times(7)) < 27.1  # 10 bursts of 3, just over 3 s apart


async def test_private_chat_bursts_again_after_a_quiet_spell(h: Harness) -> None:
    """Once 3 s have passed since a burst, three more sends to the chat go at once."""
    await h.time.run(*(h.send(7) for _ in range(3)))
    await h.time.advance(3.01)
    await h.time.run(*(h.send(7) for _ in range(3)))
    assert h.times(7) == [0.0] * 3 + [3.01] * 3


async def test_private_burst_of_one_sends_one_per_second(h: Harness) -> None:
    """private_burst=1 restores the strict 1/s: three sends a second apart."""
    h.make(private_burst=1)
    await h.time.run(*(h.send(7) for _ in range(3)))
    first, second, third = h.times(7)
    assert first == 0.0
    assert 1.0 < second - first < 1.01
    assert 1.0 < third - second < 1.01


async def test_group_twenty_per_minute_without_blocking_others(h: Harness) -> None:
    """25 sends to a group: 20 at once, 5 after a minute; another group and a user wait not."""
    busy = [asyncio.ensure_future(h.send(-100)) for _ in range(25)]
    await h.time.run(h.send(-200), h.send(5), h.send("@channel"))
    assert h.times(-200) == h.times(5) == h.times("@channel") == [0.0]
    await h.time.run(*busy)
    assert h.times(-100)[:20] == [0.0] * 20
    assert all(60.0 < t < 62.0 for t in h.times(-100)[20:])
    assert busiest(h.times(-100), 60.0) == 20


@pytest.mark.parametrize("bulk", [False, True], ids=["interactive", "bulk"])
async def test_full_group_window_never_delays_another_chat(h: Harness, bulk: bool) -> None:
    """Group A has 50 sends queued and a full window: group B's single send goes at once."""
    busy = [asyncio.ensure_future(h.send(-100)) for _ in range(50)]
    await h.time.settle()
    assert len(h.times(-100)) == 20
    await h.time.run(h.send(-200, bulk=bulk))
    assert h.times(-200) == [0.0]
    assert h.time.now == 0.0
    await h.time.run(*busy)
    assert busiest(h.times(-100), 60.0) == 20
    assert 120.0 < max(h.times(-100)) < 121.0


async def test_interactive_request_overtakes_queued_bulk(h: Harness) -> None:
    """With the window full and bulk queued, a later interactive send goes first."""
    await h.time.run(*(h.send(chat) for chat in range(1, 31)))
    bulk = [asyncio.ensure_future(h.send(chat, bulk=True)) for chat in range(101, 111)]
    await h.time.advance(0.5)
    assert len(h.calls) == 30
    await h.time.run(h.send(200), *bulk)
    assert [c for _, c, _ in h.calls[30:]] == [200, *range(101, 111)]
    assert 1.0 < h.calls[30][0] < 1.1


async def test_bulk_alone_is_not_starved(h: Harness) -> None:
    """Bulk requests with no interactive traffic still go at the full rate."""
    await h.time.run(*(h.send(chat, bulk=True) for chat in range(1, 61)))
    assert h.times()[:30] == [0.0] * 30
    assert busiest(h.times(), 1.0) == 30
    assert max(h.times()) < 1.1


async def test_retry_after_is_waited_and_retried(h: Harness) -> None:
    """Two 429s with retry_after 3 s: the request is sent again after each, then succeeds."""
    fail: list[BaseException] = [RetryAfter(timedelta(seconds=3)), RetryAfter(timedelta(seconds=3))]
    assert await h.time.run(h.send(1, fail=fail)) == [True]
    assert h.times() == [0.0, 3.0, 6.0]


async def test_retry_after_is_raised_after_max_retries(h: Harness) -> None:
    """After max_retries retries the RetryAfter reaches the caller."""
    h.make(max_retries=2)
    fail: list[BaseException] = [RetryAfter(timedelta(seconds=1)) for _ in range(3)]
    with pytest.raises(RetryAfter):
        await h.time.run(h.send(1, fail=fail))
    assert len(h.calls) == 3


async def test_retry_after_holds_back_bulk_but_not_interactive(h: Harness) -> None:
    """During a retry_after, other bulk sends wait; interactive ones to other chats do not."""
    failing = asyncio.ensure_future(h.send(1, fail=[RetryAfter(timedelta(seconds=2))]))
    await h.time.settle()
    await h.time.run(h.send(2, bulk=True), h.send(3), failing)
    assert h.times(3) == [0.0]
    assert h.times(2) == [2.0]
    assert h.times(1) == [0.0, 2.0]


async def test_uncounted_methods_pass_while_window_is_full(h: Harness) -> None:
    """answerCallbackQuery, getMe and sendChatAction never wait, even with the window full."""
    await h.time.run(*(h.send(chat) for chat in range(1, 31)))
    waiting = asyncio.ensure_future(h.send(99))
    await h.send(None, endpoint="answerCallbackQuery")
    await h.send(None, endpoint="getMe")
    await h.send(1, endpoint="sendChatAction")
    assert h.time.now == 0.0
    assert len(h.calls) == 33
    assert not waiting.done()
    await h.time.run(waiting)


async def test_cancelled_waiter_frees_its_place(h: Harness) -> None:
    """A queued send that is cancelled is skipped; the ones behind it still go."""
    await h.time.run(*(h.send(chat) for chat in range(1, 31)))
    doomed = asyncio.ensure_future(h.send(50))
    await h.time.settle()
    doomed.cancel()
    await h.time.run(*(h.send(chat) for chat in range(51, 81)))
    assert doomed.cancelled()
    assert 50 not in [c for _, c, _ in h.calls]
    assert busiest(h.times(), 1.0) == 30
    assert max(h.times()) < 1.1


async def test_close_stops_the_waiting_sends_and_refuses_new_ones(h: Harness) -> None:
    """On close, sends waiting for a window fail with SendingStopped (unsent), later sends too,
    and uncounted methods still pass."""
    await h.time.run(*(h.send(7) for _ in range(3)))  # the private chat's burst is spent
    waiting = [asyncio.ensure_future(h.send(7)) for _ in range(2)]
    await h.time.settle()
    h.limiter.close()
    await h.time.settle()
    for future in waiting:
        with pytest.raises(SendingStopped):
            future.result()
    with pytest.raises(SendingStopped):
        await h.send(8)
    assert await h.send(8, endpoint="answerCallbackQuery") is True
    assert h.times(7) == [0.0, 0.0, 0.0]


async def test_scale_10_allows_300_per_second(h: Harness) -> None:
    """scale=10 shortens the windows tenfold, like the fake's factor: 30 per 0.1 s = 300/s."""
    h.make(scale=10)
    await h.time.run(*(h.send(chat) for chat in range(1, 601)))
    assert busiest(h.times(), 0.1) == 30
    assert 290 <= busiest(h.times(), 1.0) <= 300
    assert 1.9 < max(h.times()) < 2.0  # 20 batches of 30, just over 0.1 s apart
    await h.time.run(*(h.send(700) for _ in range(4)))
    assert h.times(700)[:3] == [h.times(700)[0]] * 3  # a private burst of 3 at once
    assert 0.3 < h.times(700)[3] - h.times(700)[0] < 0.31


async def test_idle_chats_are_forgotten(h: Harness) -> None:
    """After a fan-out to 10,000 chats, their state is dropped once their windows are over."""
    h.make(scale=100)
    await h.time.run(*(h.send(chat, bulk=True) for chat in range(1, 10_001)))
    assert len(h.calls) == 10_000
    await h.time.advance(61)
    await h.time.run(h.send(-1))
    assert len(h.limiter._chats) == 1


async def test_no_429_from_the_fake_bot_api_at_full_speed() -> None:
    """60 sends to 60 private chats through PTB and the fake server (factor 20): no 429s."""
    async with BotApiServer(limits=RateLimits(factor=20)) as fake:
        app = (
            ApplicationBuilder()
            .token(fake.token)
            .base_url(f"{fake.url}/bot")
            .request(AiohttpRequest(connection_pool_size=64))
            .rate_limiter(SlidingWindowRateLimiter(scale=20))
            .updater(None)
            .build()
        )
        async with app:
            sends = (app.bot.send_message(chat_id=chat, text="hi") for chat in range(1, 61))
            sent = await asyncio.wait_for(asyncio.gather(*sends), timeout=5)
        assert fake.rejected_429 == 0
        assert sorted(m.chat_id for m in sent) == list(range(1, 61))
        assert [c.status for c in fake.calls_to("sendMessage")] == [200] * 60
