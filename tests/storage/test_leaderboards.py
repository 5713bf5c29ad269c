"""Leaderboards and /me figures on a real database, kept by the trigger on answers."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from bot.core.model import Player
from bot.core.leaderboard import Leaderboard
from bot.core.periods import EPOCH, PeriodKind
from tests.storage.boards import ALICE, BOB, CAROL, DAVE, UTC_ZONE, Boards, utc

CHAT = -100123
OTHER_CHAT = -100456
DAY = utc(2026, 12, 2, 9)
WEEK = utc(2026, 11, 30)


def lines(board: Leaderboard) -> list[tuple[int, int]]:
    return [(e.rank, e.user_id) for e in board.entries]


async def test_board_orders_users_by_correct_answers(boards: Boards) -> None:
    """More correct answers rank higher, whatever the order they were given in."""
    await boards.play(CHAT, DAY, {ALICE: True, BOB: True, CAROL: False})
    await boards.play(CHAT, DAY + timedelta(hours=1), {BOB: True, CAROL: True, ALICE: False})
    await boards.play(CHAT, DAY + timedelta(hours=2), {BOB: True})
    board = await boards.boards.top(CHAT, PeriodKind.ALL, EPOCH)
    assert lines(board) == [(1, BOB.id), (2, ALICE.id), (3, CAROL.id)]
    assert [(e.correct, e.answered) for e in board.entries] == [(3, 3), (1, 2), (1, 2)]
    assert board.viewer is None


async def test_equal_correct_answers_are_ranked_by_accuracy(boards: Boards) -> None:
    """Correct answers come first; with as many right, higher accuracy beats an earlier finish."""
    await boards.play(CHAT, DAY, {BOB: True, CAROL: False})
    await boards.play(CHAT, DAY + timedelta(hours=1), {ALICE: True, BOB: True, CAROL: True})
    await boards.play(CHAT, DAY + timedelta(hours=2), {ALICE: True, BOB: False, CAROL: True})
    await boards.play(CHAT, DAY + timedelta(hours=3), {CAROL: False})
    await boards.play(CHAT, DAY + timedelta(hours=4), {CAROL: True})
    board = await boards.boards.top(CHAT, PeriodKind.WEEK, WEEK)
    assert lines(board) == [(1, CAROL.id), (2, ALICE.id), (3, BOB.id)]
    assert [e.accuracy for e in board.entries] == [3 / 5, 1.0, 2 / 3]
    assert board.entries[1].reached_at == DAY + timedelta(hours=2)
    assert board.entries[2].reached_at == DAY + timedelta(hours=1)
    below = await boards.boards.top(CHAT, PeriodKind.WEEK, WEEK, limit=2, viewer_id=BOB.id)
    assert below.viewer is not None
    assert below.viewer.rank == 3


async def test_equal_score_and_accuracy_go_to_who_got_there_first(boards: Boards) -> None:
    """Same correct count and accuracy: the earlier last correct answer ranks first."""
    await boards.play(CHAT, DAY, {ALICE: True})
    await boards.play(CHAT, DAY + timedelta(hours=1), {BOB: True})
    await boards.play(CHAT, DAY + timedelta(hours=2), {BOB: True})
    await boards.play(CHAT, DAY + timedelta(hours=3), {ALICE: True})
    board = await boards.boards.top(CHAT, PeriodKind.MONTH, utc(2026, 12, 1))
    assert lines(board) == [(1, BOB.id), (2, ALICE.id)]
    assert board.entries[0].reached_at == DAY + timedelta(hours=2)
    below = await boards.boards.top(CHAT, PeriodKind.MONTH, utc(2026, 12, 1), limit=1, viewer_id=1)
    assert below.viewer is not None
    assert below.viewer.rank == 2


async def test_full_ties_share_a_rank_and_the_next_rank_skips(boards: Boards) -> None:
    """Users equal on all three keys share a rank; the next one is ranked 4th (1, 2, 2, 4)."""
    await boards.play(CHAT, DAY, {ALICE: True, BOB: True, CAROL: True, DAVE: False})
    await boards.play(CHAT, DAY + timedelta(hours=1), {ALICE: True, BOB: False, CAROL: False})
    board = await boards.boards.top(CHAT, PeriodKind.ALL, EPOCH)
    assert lines(board) == [(1, ALICE.id), (2, BOB.id), (2, CAROL.id), (4, DAVE.id)]
    everyone_tied = await boards.boards.top(CHAT, PeriodKind.ALL, EPOCH, viewer_id=CAROL.id)
    assert everyone_tied.viewer is None


async def test_viewer_outside_the_top_gets_their_own_line(boards: Boards) -> None:
    """A caller ranked 12th sees the top 10 and their own line with rank 12 below."""
    players = [Player(100 + i, f"P{i}") for i in range(12)]
    for question in range(12):
        at = DAY + timedelta(minutes=question)
        await boards.play(CHAT, at, {p: question < 12 - i for i, p in enumerate(players)})
    board = await boards.boards.top(CHAT, PeriodKind.WEEK, WEEK, viewer_id=players[11].id)
    assert lines(board) == [(i + 1, players[i].id) for i in range(10)]
    assert board.viewer is not None
    assert (board.viewer.rank, board.viewer.user_id, board.viewer.correct) == (12, 111, 1)
    inside = await boards.boards.top(CHAT, PeriodKind.WEEK, WEEK, viewer_id=players[3].id)
    assert inside.viewer is None
    stranger = await boards.boards.top(CHAT, PeriodKind.WEEK, WEEK, viewer_id=999)
    assert stranger.viewer is None
    shorter = await boards.boards.top(CHAT, PeriodKind.WEEK, WEEK, limit=3)
    assert len(shorter.entries) == 3


async def test_viewer_with_no_correct_answer_ranks_after_everyone_right(boards: Boards) -> None:
    """Users with nothing right tie with each other, below all who got something right."""
    await boards.play(CHAT, DAY, {ALICE: True, BOB: False, CAROL: False})
    board = await boards.boards.top(CHAT, PeriodKind.ALL, EPOCH, limit=1, viewer_id=CAROL.id)
    assert board.viewer is not None
    assert (board.viewer.rank, board.viewer.reached_at, board.viewer.accuracy) == (2, None, 0.0)


async def test_viewer_ranks_agree_with_the_full_board(boards: Boards) -> None:
    """Every user's own-line rank is the rank they have on the complete board, in every period."""
    await boards.random_history(CHAT, UTC_ZONE, seed=7)
    starts = await boards.db.fetch_all(
        "SELECT DISTINCT period, period_start FROM period_scores WHERE chat_id = ?", (CHAT,)
    )
    assert len(starts) > 10
    for period, start_ms in starts:
        kind, start = PeriodKind(period), EPOCH + timedelta(milliseconds=start_ms)
        full = await boards.boards.top(CHAT, kind, start, limit=100)
        for entry in full.entries:
            alone = await boards.boards.top(CHAT, kind, start, limit=0, viewer_id=entry.user_id)
            assert alone.viewer == entry
        summary = await boards.boards.player_summary(CHAT, full.entries[-1].user_id, start)
        assert summary is not None
        if kind is PeriodKind.WEEK:
            assert summary.week_rank == full.entries[-1].rank


async def test_entries_carry_the_users_names(boards: Boards) -> None:
    """Each line has first and last name and username, and a display name from both names."""
    await boards.play(CHAT, DAY, {ALICE: True, BOB: True})
    board = await boards.boards.top(CHAT, PeriodKind.ALL, EPOCH, limit=1, viewer_id=BOB.id)
    alice = board.entries[0]
    assert (alice.first_name, alice.last_name, alice.username) == ("Alice", "Liddell", "alice")
    assert alice.display_name == "Alice Liddell"
    assert board.viewer is not None
    assert board.viewer.display_name == "Bob"


async def test_week_month_and_all_time_count_only_their_own_answers(boards: Boards) -> None:
    """Each board counts the answers of its period: a week spanning two months included."""
    await boards.play(CHAT, utc(2026, 10, 20, 12), {ALICE: True})
    await boards.play(CHAT, utc(2026, 11, 25, 12), {BOB: True})
    await boards.play(CHAT, utc(2026, 11, 30, 12), {DAVE: True})
    await boards.play(CHAT, utc(2026, 12, 1, 12), {CAROL: True})

    async def users(kind: PeriodKind, start: datetime) -> set[int]:
        board = await boards.boards.top(CHAT, kind, start)
        return {e.user_id for e in board.entries}

    assert await users(PeriodKind.WEEK, WEEK) == {DAVE.id, CAROL.id}
    assert await users(PeriodKind.WEEK, utc(2026, 11, 23)) == {BOB.id}
    assert await users(PeriodKind.MONTH, utc(2026, 11, 1)) == {BOB.id, DAVE.id}
    assert await users(PeriodKind.ALL, EPOCH) == {ALICE.id, BOB.id, CAROL.id, DAVE.id}
    december = await boards.boards.top(CHAT, PeriodKind.MONTH, utc(2026, 12, 1))
    assert [e.user_id for e in december.entries] == [CAROL.id]


async def test_boards_are_per_chat(boards: Boards) -> None:
    """Answers in another chat do not show on this chat's boards or in its ranks."""
    await boards.play(CHAT, DAY, {ALICE: True})
    await boards.play(OTHER_CHAT, DAY, {BOB: True, ALICE: False})
    here = await boards.boards.top(CHAT, PeriodKind.ALL, EPOCH, viewer_id=BOB.id)
    assert (lines(here), here.viewer) == ([(1, ALICE.id)], None)
    there = await boards.boards.top(OTHER_CHAT, PeriodKind.ALL, EPOCH)
    assert lines(there) == [(1, BOB.id), (2, ALICE.id)]


async def test_summary_has_points_accuracy_streaks_and_ranks(boards: Boards) -> None:
    """/me: points are all-time correct answers, with current and best streak and both ranks."""
    results = [True, True, False, True, True, True, False, True]
    last_week = utc(2026, 11, 24, 9)
    for i, correct in enumerate(results):
        at = (last_week if i < 6 else DAY) + timedelta(hours=i)
        await boards.play(CHAT, at, {ALICE: correct, BOB: True})
    summary = await boards.boards.player_summary(CHAT, ALICE.id, WEEK)
    assert summary is not None
    assert (summary.points, summary.answered, summary.accuracy) == (6, 8, 0.75)
    assert (summary.streak, summary.best_streak) == (1, 3)
    assert (summary.week_rank, summary.all_rank) == (2, 2)
    bob = await boards.boards.player_summary(CHAT, BOB.id, WEEK)
    assert bob is not None
    assert (bob.points, bob.streak, bob.best_streak, bob.week_rank, bob.all_rank) == (
        8,
        8,
        8,
        1,
        1,
    )


async def test_summary_without_answers_this_week_has_no_week_rank(boards: Boards) -> None:
    """A user who answered only in earlier weeks has an all-time rank and no week rank."""
    await boards.play(CHAT, utc(2026, 11, 24), {ALICE: False})
    summary = await boards.boards.player_summary(CHAT, ALICE.id, WEEK)
    assert summary is not None
    assert (summary.week_rank, summary.all_rank, summary.streak) == (None, 1, 0)
    assert await boards.boards.player_summary(CHAT, BOB.id, WEEK) is None
    assert await boards.boards.player_summary(OTHER_CHAT, ALICE.id, WEEK) is None


async def test_chat_zone_falls_back_to_the_default(boards: Boards) -> None:
    """A chat without a zone, with an unknown one or not known at all gets the default zone."""
    berlin = ZoneInfo("Europe/Berlin")
    await boards.play(CHAT, DAY, {})
    assert await boards.boards.chat_zone(CHAT, berlin) is berlin
    assert await boards.boards.chat_zone(999, berlin) is berlin
    async with boards.db.transaction() as conn:
        await conn.execute("UPDATE chats SET timezone = 'Asia/Kolkata' WHERE id = ?", (CHAT,))
    assert await boards.boards.chat_zone(CHAT, UTC_ZONE) == ZoneInfo("Asia/Kolkata")
    async with boards.db.transaction() as conn:
        await conn.execute("UPDATE chats SET timezone = 'Mars/Olympus' WHERE id = ?", (CHAT,))
    assert await boards.boards.chat_zone(CHAT, berlin) is berlin
