"""Group questions: private alerts, one answer per member, the debounced count, the reveal."""

from __future__ import annotations

from bot.app import RunningBot
from bot.playground.botapi import BotApiServer
from tests.e2e.conftest import StartBot
from tests.e2e.helpers.group import (
    GROUP,
    MEMBERS,
    OTHER_TOPIC,
    TOPIC,
    ask_id_of,
    group_quiz,
    press_all,
    right_and_wrong,
    tick,
)
from tests.fakes.clock import FakeClock


async def test_group_quiz_posts_in_the_topic_with_an_answer_count(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """/quiz@botname in a forum topic posts the question there, open, with '👥 0 answered'."""
    question = await group_quiz(fake, text="/quiz@quizbot_test_bot")
    assert question.thread_id == TOPIC
    assert question.text is not None
    assert "👥 0 answered" in question.text
    assert "open until 09:05 UTC" in question.text
    assert [b["text"] for b in question.buttons] == ["A", "B", "C", "D"]


async def test_each_member_gets_a_private_alert_and_one_answer(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """Presses get alerts with result and explanation (≤200 chars); repeats get 'already'."""
    question = await group_quiz(fake)
    right, wrong, letter = await right_and_wrong(bot, question)
    wrong_letter = "ABCD"[question.callback_data.index(wrong)]
    alerts = await press_all(fake, question, [(MEMBERS[1], right), (MEMBERS[2], wrong)])
    assert alerts[0].startswith("✅ Correct!\n\n")
    assert alerts[1].startswith(f"❌ Not quite — it was {letter}.")
    assert all(len(alert) <= 200 for alert in alerts)
    assert all(fake.callback_answers[q].show_alert for q in fake.callback_answers)
    again = await press_all(fake, question, [(MEMBERS[2], right)])
    assert again == [f"You already answered {wrong_letter}"]
    assert not [
        c for c in fake.calls_to("sendMessage") if c.params.get("text", "").startswith("✅")
    ]


async def test_fifty_presses_in_two_seconds_cost_at_most_two_edits(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """The live count is edited at once, then at most once more after the interval."""
    question = await group_quiz(fake)
    right, wrong, _ = await right_and_wrong(bot, question)
    since = len(fake.calls)
    presses = [(member, right if i % 3 else wrong) for i, member in enumerate(MEMBERS[:50])]
    await press_all(fake, question, presses[:25])
    clock.advance(seconds=2)
    await press_all(fake, question, presses[25:])
    await fake.idle()
    clock.advance(seconds=5)
    await tick(fake, bot)
    edits = [c for c in fake.calls[since:] if c.method == "editMessageText"]
    assert 1 <= len(edits) <= 2
    assert "👥 50 answered" in edits[-1].params["text"]
    assert fake.message(GROUP.id, question.message_id).buttons


async def test_concurrent_presses_are_each_scored_exactly_once(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """Sixty members pressing three times each at once leave sixty answers, one each."""
    question = await group_quiz(fake)
    presses = [(member, question.callback_data[n % 4]) for n in range(3) for member in MEMBERS]
    alerts = await press_all(fake, question, presses)
    assert sum(a.startswith("You already answered") for a in alerts) == 2 * len(MEMBERS)
    assert await bot.store.answer_count(ask_id_of(question)) == len(MEMBERS)
    for member in MEMBERS:
        stats = await bot.store.user_stats(GROUP.id, member.id)
        assert stats.answered == 1


async def test_deadline_reveals_answer_explanation_and_first_right(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """At the deadline the message shows the right option, explanation, counts and who was first."""
    question = await group_quiz(fake)
    ask_id = ask_id_of(question)  # the buttons go with the reveal
    right, wrong, letter = await right_and_wrong(bot, question)
    await press_all(fake, question, [(MEMBERS[3], wrong)])
    clock.advance(seconds=10)
    await press_all(fake, question, [(MEMBERS[4], right)])
    clock.advance(seconds=10)
    await press_all(fake, question, [(MEMBERS[5], right)])
    clock.advance(seconds=300)
    await tick(fake, bot)
    closed = fake.message(GROUP.id, question.message_id)
    assert not closed.callback_data  # the answer buttons are gone (a report link stays)
    assert closed.text is not None
    assert f"✅ <b>{letter})</b>" in closed.text
    assert "💡 " in closed.text
    assert "👥 3 answered · 2 right" in closed.text
    assert "🥇 First right: Member4" in closed.text
    late = await press_all(fake, question, [(MEMBERS[6], right)])
    assert late == [f"This question has closed — the answer was {letter}."]
    assert await bot.store.answer_count(ask_id) == 3
    assert (await bot.store.user_stats(GROUP.id, MEMBERS[6].id)).answered == 0


async def test_restart_closes_overdue_questions_and_keeps_open_ones_on_time(
    fake: BotApiServer, start_bot: StartBot, clock: FakeClock
) -> None:
    """After a restart overdue questions close at start and open ones close at their deadline."""
    async with start_bot():
        overdue = await group_quiz(fake)
        clock.advance(seconds=200)
        still_open = await group_quiz(fake, thread=OTHER_TOPIC)
    clock.advance(seconds=150)  # the first is now 350 s old, the second 150 s
    async with start_bot() as running:
        await running.sender.idle()
        await fake.idle()
        assert not fake.message(GROUP.id, overdue.message_id).callback_data
        assert fake.message(GROUP.id, still_open.message_id).reply_markup is not None
        clock.advance(seconds=150)
        await tick(fake, running)
        assert not fake.message(GROUP.id, still_open.message_id).callback_data
