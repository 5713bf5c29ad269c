"""`/forgetme`: confirmed in private, it deletes the user's data; the boards stop counting them."""

from __future__ import annotations

from bot.app import RunningBot
from bot.core.model import MemoryFit
from bot.playground.botapi import BotApiServer
from tests.e2e.conftest import ALICE, alice_private
from tests.e2e.helpers.group import (
    GROUP,
    MEMBERS,
    TOPIC,
    ask_id_of,
    close_open_questions,
    group_quiz,
    press_all,
    right_and_wrong,
)
from tests.fakes.clock import FakeClock


async def _board(fake: BotApiServer) -> str:
    since = len(fake.calls)
    fake.send_message(GROUP, MEMBERS[3], "/leaderboard all", thread_id=TOPIC)
    call = await fake.wait_for_call("sendMessage", since=since)
    return str(call.params["text"])


async def test_forgetme_deletes_answers_cards_and_name_and_the_board_forgets(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """Alice answered in a group (one miss); after /forgetme the board, her cards and her fitted
    memory parameters are gone."""
    question = await group_quiz(fake)
    ask = await bot.store.get_ask(ask_id_of(question))
    assert ask is not None
    right, wrong, _ = await right_and_wrong(bot, question)
    await press_all(fake, question, [(ALICE, wrong), (MEMBERS[1], right)])
    await close_open_questions(fake, bot, clock)
    assert "Alice" in await _board(fake)
    clock.advance(days=2)
    assert await bot.store.due_cards(ALICE.id, ask.deck_id, clock.now(), 5)
    weights = tuple(0.1 * (n + 1) for n in range(21))
    fit = MemoryFit(ALICE.id, ask.deck_id, weights, 500, 0.4, 0.35, clock.now())
    await bot.store.save_memory_fit(fit)

    since = len(fake.calls)
    fake.send_message(alice_private(), ALICE, "/forgetme")
    call = await fake.wait_for_call("sendMessage", since=since)
    assert "cannot be undone" in str(call.params["text"])
    confirm = fake.message(ALICE.id, call.result["message_id"])
    query = fake.press_button(alice_private(), ALICE, confirm.message_id, "forget:yes")
    await fake.callback_answer(query)
    await fake.idle()
    assert fake.message(ALICE.id, confirm.message_id).text.startswith("✅ Done")

    board = await _board(fake)
    assert "Alice" not in board
    assert "Member1" in board
    assert await bot.store.due_cards(ALICE.id, ask.deck_id, clock.now(), 5) == []
    assert await bot.store.history(ALICE.id, ask.deck_id, ask.asked_at) == []
    assert await bot.store.answered_chats(ALICE.id) == []
    assert await bot.store.memory_fit(ALICE.id, ask.deck_id) is None


async def test_forgetme_in_a_group_changes_nothing_and_points_to_private(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """In a group /forgetme only explains where it works; a cancel in private deletes nothing."""
    since = len(fake.calls)
    fake.send_message(GROUP, ALICE, "/forgetme", thread_id=TOPIC)
    call = await fake.wait_for_call("sendMessage", since=since)
    assert "private chat" in str(call.params["text"])
    fake.send_message(alice_private(), ALICE, "/forgetme")
    call = await fake.wait_for_call("sendMessage", since=since, count=2)
    confirm = fake.message(ALICE.id, call.result["message_id"])
    query = fake.press_button(alice_private(), ALICE, confirm.message_id, "forget:no")
    await fake.callback_answer(query)
    await fake.idle()
    assert fake.message(ALICE.id, confirm.message_id).text == "Nothing was deleted."
