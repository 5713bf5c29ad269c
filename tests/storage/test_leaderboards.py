"""Board rows and standings on a real database of either engine, kept by the trigger on
answers."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.core.model import EPOCH, BoardRow, PeriodKind, Player
from tests.storage.helpers import ALICE, BOB, CAROL, DAVE, UTC_ZONE, Boards, utc

CHAT = -100123
OTHER_CHAT = -100456
DAY = utc(2026, 12, 2, 9)
WEEK = utc(2026, 11, 30)


def ids(rows: list[BoardRow]) -> list[int]:
    return [row.player.id for row in rows]


def better(b: BoardRow, v: BoardRow) -> bool:
    """What `ahead` counts: more correct, else higher accuracy, else an earlier reached_at."""
    if b.correct != v.correct:
        return b.correct > v.correct
    left, right = b.correct * v.answered, v.correct * b.answered
    if left != right:
        return left > right
    return b.reached_at is not None and v.reached_at is not None and b.reached_at < v.reached_at


async def test_board_orders_users_by_correct_answers(boards: Boards) -> None:
    """More correct answers come first, whatever the order they were given in."""
    await boards.play(CHAT, DAY, {ALICE: True, BOB: True, CAROL: False})
    await boards.play(CHAT, DAY + timedelta(hours=1), {BOB: True, CAROL: True, ALICE: False})
    await boards.play(CHAT, DAY + timedelta(hours=2), {BOB: True})
    top = await boards.store.top(CHAT, PeriodKind.ALL, EPOCH, 10)
    assert ids(top) == [BOB.id, ALICE.id, CAROL.id]
    assert [(r.correct, r.answered) for r in top] == [(3, 3), (1, 2), (1, 2)]


async def test_equal_correct_answers_are_ordered_by_accuracy_then_reached_at(
    boards: Boards,
) -> None:
    """Correct answers first; with as many right, higher accuracy beats an earlier finish."""
    await boards.play(CHAT, DAY, {BOB: True, CAROL: False})
    await boards.play(CHAT, DAY + timedelta(hours=1), {ALICE: True, BOB: True, CAROL: True})
    await boards.play(CHAT, DAY + timedelta(hours=2), {ALICE: True, BOB: False, CAROL: True})
    await boards.play(CHAT, DAY + timedelta(hours=3), {CAROL: False})
    await boards.play(CHAT, DAY + timedelta(hours=4), {CAROL: True})
    top = await boards.store.top(CHAT, PeriodKind.WEEK, WEEK, 10)
    assert ids(top) == [CAROL.id, ALICE.id, BOB.id]
    assert [(r.correct, r.answered) for r in top] == [(3, 5), (2, 2), (2, 3)]
    assert [r.reached_at for r in top[1:]] == [DAY + timedelta(hours=2), DAY + timedelta(hours=1)]
    bob = await boards.store.standing(CHAT, PeriodKind.WEEK, WEEK, BOB.id)
    assert bob is not None
    assert (bob.ahead, bob.row) == (2, top[2])


async def test_equal_score_and_accuracy_go_to_who_got_there_first(boards: Boards) -> None:
    """Same correct count and accuracy: the earlier last correct answer is ahead."""
    await boards.play(CHAT, DAY, {ALICE: True})
    await boards.play(CHAT, DAY + timedelta(hours=1), {BOB: True})
    await boards.play(CHAT, DAY + timedelta(hours=2), {BOB: True})
    await boards.play(CHAT, DAY + timedelta(hours=3), {ALICE: True})
    month = utc(2026, 12, 1)
    assert ids(await boards.store.top(CHAT, PeriodKind.MONTH, month, 10)) == [BOB.id, ALICE.id]
    alice = await boards.store.standing(CHAT, PeriodKind.MONTH, month, ALICE.id)
    assert alice is not None
    assert (alice.ahead, alice.row.reached_at) == (1, DAY + timedelta(hours=3))


async def test_full_ties_are_not_counted_as_ahead(boards: Boards) -> None:
    """Users equal on all three keys are not ahead of each other (ranks 1, 2, 2, 4)."""
    await boards.play(CHAT, DAY, {ALICE: True, BOB: True, CAROL: True, DAVE: False})
    await boards.play(CHAT, DAY + timedelta(hours=1), {ALICE: True, BOB: False, CAROL: False})
    top = await boards.store.top(CHAT, PeriodKind.ALL, EPOCH, 10)
    assert ids(top) == [ALICE.id, BOB.id, CAROL.id, DAVE.id]
    aheads = []
    for player in (ALICE, BOB, CAROL, DAVE):
        standing = await boards.store.standing(CHAT, PeriodKind.ALL, EPOCH, player.id)
        assert standing is not None
        aheads.append(standing.ahead)
    assert aheads == [0, 1, 1, 3]


async def test_user_with_no_correct_answer_is_behind_everyone_right(boards: Boards) -> None:
    """Users with nothing right tie with each other, behind all who got something right."""
    await boards.play(CHAT, DAY, {ALICE: True, BOB: False, CAROL: False})
    carol = await boards.store.standing(CHAT, PeriodKind.ALL, EPOCH, CAROL.id)
    assert carol is not None
    assert (carol.ahead, carol.row.reached_at, carol.row.correct) == (1, None, 0)


async def test_standings_agree_with_the_full_board(boards: Boards) -> None:
    """In every period `ahead` counts exactly the better rows, and no row precedes a better one."""
    await boards.random_history(CHAT, UTC_ZONE, seed=7)
    starts = await boards.raw.peek(
        "SELECT DISTINCT period, period_start FROM period_scores WHERE chat_id = ?",
        (CHAT,),
    )
    assert len(starts) > 10
    for period, start_ms in starts:
        assert isinstance(start_ms, int)
        kind, start = PeriodKind(str(period)), EPOCH + timedelta(milliseconds=start_ms)
        full = await boards.store.top(CHAT, kind, start, 100)
        for index, row in enumerate(full):
            assert not any(better(later, row) for later in full[index + 1 :])
            standing = await boards.store.standing(CHAT, kind, start, row.player.id)
            assert standing is not None
            assert standing.row == row
            assert standing.ahead == sum(better(other, row) for other in full)
        assert len(await boards.store.top(CHAT, kind, start, 3)) == min(3, len(full))


async def test_rows_carry_the_players_names(boards: Boards) -> None:
    """Each row has the player's first and last name and username."""
    await boards.play(CHAT, DAY, {ALICE: True, BOB: True})
    top = await boards.store.top(CHAT, PeriodKind.ALL, EPOCH, 10)
    assert [row.player for row in top] == [ALICE, BOB]


async def test_week_month_and_all_time_count_only_their_own_answers(boards: Boards) -> None:
    """Each board counts the answers of its period: a week spanning two months included."""
    await boards.play(CHAT, utc(2026, 10, 20, 12), {ALICE: True})
    await boards.play(CHAT, utc(2026, 11, 25, 12), {BOB: True})
    await boards.play(CHAT, utc(2026, 11, 30, 12), {DAVE: True})
    await boards.play(CHAT, utc(2026, 12, 1, 12), {CAROL: True})

    async def users(kind: PeriodKind, start: datetime) -> set[int]:
        return set(await boards.users_on(CHAT, kind, start))

    assert await users(PeriodKind.WEEK, WEEK) == {DAVE.id, CAROL.id}
    assert await users(PeriodKind.WEEK, utc(2026, 11, 23)) == {BOB.id}
    assert await users(PeriodKind.MONTH, utc(2026, 11, 1)) == {BOB.id, DAVE.id}
    assert await users(PeriodKind.ALL, EPOCH) == {ALICE.id, BOB.id, CAROL.id, DAVE.id}
    # For all time the start is ignored.
    assert await users(PeriodKind.ALL, DAY) == {ALICE.id, BOB.id, CAROL.id, DAVE.id}


async def test_boards_are_per_chat(boards: Boards) -> None:
    """Answers in another chat do not show on this chat's board or in its standings."""
    await boards.play(CHAT, DAY, {ALICE: True})
    await boards.play(OTHER_CHAT, DAY, {BOB: True, ALICE: False})
    assert await boards.users_on(CHAT, PeriodKind.ALL, EPOCH) == [ALICE.id]
    assert await boards.store.standing(CHAT, PeriodKind.ALL, EPOCH, BOB.id) is None
    assert await boards.users_on(OTHER_CHAT, PeriodKind.ALL, EPOCH) == [BOB.id, ALICE.id]
    alice_there = await boards.store.standing(OTHER_CHAT, PeriodKind.ALL, EPOCH, ALICE.id)
    assert alice_there is not None
    assert alice_there.ahead == 1


async def test_all_time_standing_has_current_and_best_streak(boards: Boards) -> None:
    """Streaks follow the answers in time order, kept on the all-time row only."""
    results = [True, True, False, True, True, True, False, True]
    for i, correct in enumerate(results):
        at = (utc(2026, 11, 24, 9) if i < 6 else DAY) + timedelta(hours=i)
        await boards.play(CHAT, at, {ALICE: correct, BOB: True})
    alice = await boards.store.standing(CHAT, PeriodKind.ALL, EPOCH, ALICE.id)
    assert alice is not None
    assert (alice.row.correct, alice.row.answered, alice.ahead) == (6, 8, 1)
    assert (alice.streak, alice.best_streak) == (1, 3)
    bob = await boards.store.standing(CHAT, PeriodKind.ALL, EPOCH, BOB.id)
    assert bob is not None
    assert (bob.row.correct, bob.streak, bob.best_streak, bob.ahead) == (8, 8, 8, 0)
    week = await boards.store.standing(CHAT, PeriodKind.WEEK, WEEK, ALICE.id)
    assert week is not None
    assert (week.row.correct, week.row.answered, week.ahead) == (1, 2, 1)


async def test_no_standing_for_a_period_without_answers(boards: Boards) -> None:
    """A user who answered only in earlier weeks has an all-time standing, none this week."""
    await boards.play(CHAT, utc(2026, 11, 24), {ALICE: False})
    assert await boards.store.standing(CHAT, PeriodKind.WEEK, WEEK, ALICE.id) is None
    alice = await boards.store.standing(CHAT, PeriodKind.ALL, EPOCH, ALICE.id)
    assert alice is not None
    assert (alice.ahead, alice.streak, alice.best_streak) == (0, 0, 0)
    assert await boards.store.standing(CHAT, PeriodKind.ALL, EPOCH, BOB.id) is None
    assert await boards.store.top(OTHER_CHAT, PeriodKind.ALL, EPOCH, 10) == []


async def test_top_and_standing_of_a_player_read_the_same_row(boards: Boards) -> None:
    """`standing().row` is the row `top()` shows for that player."""
    await boards.play(CHAT, DAY, {ALICE: True, DAVE: False})
    [alice, dave] = await boards.store.top(CHAT, PeriodKind.WEEK, WEEK, 10)
    assert alice == BoardRow(ALICE, 1, 1, DAY)
    assert dave == BoardRow(Player(DAVE.id, "Dave", None, "dave"), 0, 1, None)
