"""Replicas keep to their share of Telegram's limits (`SlidingWindowRateLimiter.set_share`)."""

from __future__ import annotations

import pytest

from bot.transport.ratelimit.windows import divided
from tests.bot.transport.ratelimit.harness import Harness, busiest

GROUP = -100123


@pytest.fixture
def h() -> Harness:
    return Harness()


def test_a_share_divides_the_limit_so_that_replicas_together_stay_within_it() -> None:
    """For any number of replicas, their shares of a window add up to at most its limit."""
    for limit in (1, 3, 20, 30):
        for replicas in range(1, 41):
            share, period = divided(limit, 60.0, replicas)
            assert share >= 1
            # Each replica's share per original period, summed over the replicas.
            assert share * replicas * 60.0 / period <= limit


async def test_two_replicas_each_send_at_most_ten_a_minute_to_a_group(h: Harness) -> None:
    """With a share of 1/2, a burst of 25 group messages goes out 10 per minute."""
    h.limiter.set_share(2)
    await h.time.run(*(h.send(GROUP) for _ in range(25)))
    assert busiest(h.times(GROUP), 60.0) <= 10
    assert len(h.times(GROUP)) == 25


async def test_two_replicas_each_send_at_most_fifteen_a_second_overall(h: Harness) -> None:
    """With a share of 1/2, messages to many chats go out at most 15 a second."""
    h.limiter.set_share(2)
    await h.time.run(*(h.send(-100 - n) for n in range(60)))
    assert busiest(h.times(), 1.0) <= 15


async def test_a_share_applies_to_chats_the_limiter_already_knows(h: Harness) -> None:
    """A group seen before the share changed is held to the new, smaller limit."""
    await h.time.run(h.send(GROUP))
    h.limiter.set_share(4)
    await h.time.run(*(h.send(GROUP) for _ in range(12)))
    assert busiest(h.times(GROUP), 60.0) <= 5


async def test_the_whole_budget_returns_when_the_other_replicas_are_gone(h: Harness) -> None:
    """Back to one replica, a group gets its 20 a minute again."""
    h.limiter.set_share(3)
    h.limiter.set_share(1)
    await h.time.run(*(h.send(GROUP) for _ in range(20)))
    assert max(h.times(GROUP)) - min(h.times(GROUP)) < 1.0
