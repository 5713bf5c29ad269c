"""The leader loop: one beat takes, keeps or gives up leadership and sets the budget share."""

from __future__ import annotations

from pathlib import Path

from bot.transport.ratelimit import SlidingWindowRateLimiter
from bot.workers.leader import LeaderLoop
from storage.sqlite import SqliteStore
from tests.fakes.clock import FakeClock


class Scripted:
    """Leadership that answers `hold()` from a script."""

    def __init__(self, *answers: bool) -> None:
        self.answers = list(answers)
        self.resigned = False

    async def hold(self) -> bool:
        return self.answers.pop(0)

    async def resign(self) -> None:
        self.resigned = True


async def test_leadership_changes_start_and_stop_the_leaders_work_once_each(
    tmp_path: Path,
) -> None:
    """Taking leadership runs `lead` once, keeping it runs nothing, losing it runs `follow`."""
    store = await SqliteStore.open(tmp_path / "q.sqlite3")
    calls: list[str] = []

    async def lead() -> None:
        calls.append("lead")

    async def follow() -> None:
        calls.append("follow")

    leadership = Scripted(True, True, False, True)
    loop = LeaderLoop(
        replica="me",
        leadership=leadership,
        replicas=store,
        limiter=SlidingWindowRateLimiter(),
        clock=FakeClock(),
        lead=lead,
        follow=follow,
    )
    try:
        for _ in range(4):
            await loop.check()
        assert calls == ["lead", "follow", "lead"]
        assert loop.leading
        await loop.stop()
        assert calls[-1] == "follow"
        assert leadership.resigned
        assert not loop.leading
    finally:
        await store.close()


async def test_each_beat_sets_the_share_from_the_replicas_alive(tmp_path: Path) -> None:
    """With another replica beating, this one keeps to half of the budget; a minute after the
    other went quiet (its sends have left Telegram's windows), it takes the whole again."""
    store = await SqliteStore.open(tmp_path / "q.sqlite3")
    clock = FakeClock()
    limiter = SlidingWindowRateLimiter()
    shares: list[int] = []
    limiter.set_share = shares.append  # type: ignore[method-assign]

    async def nothing() -> None:
        return None

    loop = LeaderLoop(
        replica="me",
        leadership=Scripted(False, False, False),
        replicas=store,
        limiter=limiter,
        clock=clock,
        lead=nothing,
        follow=nothing,
    )
    try:
        await store.heartbeat("other", clock.now(), clock.now())
        await loop.check()
        clock.advance(seconds=10)  # the other replica has gone quiet
        await loop.check()
        clock.advance(seconds=55)
        await loop.check()
        assert shares == [2, 2, 1]
    finally:
        await store.close()
