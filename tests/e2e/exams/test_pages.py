"""`/exam` end to end: one message edited in place, answers changed, flags, navigation, the
result with its misses, and every press that must write nothing."""

from __future__ import annotations

from bot.app import RunningBot
from bot.playground.botapi import BotApiServer, FakeChat
from tests.e2e.conftest import ALICE, BOB
from tests.e2e.helpers.exam import (
    EXAM_MINUTES,
    EXAM_SIZE,
    exam_id_of,
    items_of,
    letters,
    press,
    press_and_show,
    result_after,
    say,
    start_exam,
)
from tests.fakes.clock import FakeClock


async def test_an_exam_is_answered_changed_flagged_navigated_and_scored(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """No right or wrong until Finish; the result scores the last choices, by topic."""
    exam = await start_exam(fake)
    assert exam.text is not None
    assert exam.text.startswith(f"📝 <b>1/{EXAM_SIZE}</b> · {EXAM_MINUTES} min left")
    assert letters(exam) == ["A", "B", "C", "D"]
    assert [b["text"] for b in exam.keyboard[1]] == ["◀", "⚑", "▶"]
    assert [b["text"] for b in exam.keyboard[2]] == ["Finish"]
    assert all(len(data.encode()) <= 64 for data in exam.callback_data)
    items = await items_of(bot, exam)
    right = ["ABCD"[item.right_position] for item in items]
    wrong = ["ABCD"[(item.right_position + 1) % 4] for item in items]

    clock.advance(minutes=2)
    exam = await press_and_show(fake, exam, wrong[0])
    assert f"● {wrong[0]}" in letters(exam)
    exam = await press_and_show(fake, exam, right[0])  # changed
    assert f"● {right[0]}" in letters(exam)
    assert exam.text is not None
    assert "✅" not in exam.text
    assert "❌" not in exam.text
    assert f"{EXAM_MINUTES - 2} min left" in exam.text
    exam = await press_and_show(fake, exam, "⚑")
    assert "🚩" in [b["text"] for b in exam.keyboard[1]]
    for number, pick in ((1, right[1]), (2, wrong[2]), (3, right[3])):
        exam = await press_and_show(fake, exam, "▶")
        assert (exam.text or "").startswith(f"📝 <b>{number + 1}/{EXAM_SIZE}</b>")
        exam = await press_and_show(fake, exam, pick)
    exam = await press_and_show(fake, exam, "▶")  # question 5, left unanswered
    exam = await press_and_show(fake, exam, "▶")  # the overview
    assert exam.text is not None
    assert "Unanswered: 5" in exam.text
    assert "🚩 Flagged: 1" in exam.text
    exam = await press_and_show(fake, exam, "🚩 1")  # back to the flagged one
    assert (exam.text or "").startswith(f"📝 <b>1/{EXAM_SIZE}</b>")
    assert f"● {right[0]}" in letters(exam)

    confirm = await press_and_show(fake, exam, "Finish")
    assert "1 question is unanswered (5)" in (confirm.text or "")
    since = len(fake.calls)
    toast = await press(fake, confirm.message_id, confirm.button("Finish now"))
    assert toast.text == "📝 Submitted: your result follows."
    result = await result_after(fake, since)
    closed = fake.message(ALICE.id, exam.message_id)
    assert closed.reply_markup is None
    assert "Exam submitted" in (closed.text or "")
    text = result.text or ""
    assert "Score: <b>3/5 (60%)</b>: ❌ <b>Not yet a pass</b>" in text
    assert "practice pass mark of 70%" in text
    assert "the real pass mark is not published" in text
    assert "Time used: 2 min 0 s of 8 min 0 s." in text
    assert "Unanswered: 1." in text
    topics = {item.topic for item in items}
    assert all(f" {topic}: " in text for topic in topics)

    review = await press_and_show(fake, result, "Go through the 2 misses")
    assert (review.text or "").startswith("🔍 <b>Miss 1/2</b> · question 3")
    assert "← <i>your answer</i>" in (review.text or "")
    assert "💡" in (review.text or "")
    review = await press_and_show(fake, review, "▶")
    assert (review.text or "").startswith("🔍 <b>Miss 2/2</b> · question 5")
    assert "You did not answer this one." in (review.text or "")
    back = await press_and_show(fake, review, "Result")
    assert (back.text or "") == text


async def test_exam_answers_feed_memory_but_not_the_leaderboards(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """Submitted answers are in the learner's log (source exam); /me counts none of them."""
    exam = await start_exam(fake)
    started = clock.now()
    for _ in range(2):
        exam = await press_and_show(fake, exam, "B")
        exam = await press_and_show(fake, exam, "▶")
    since = len(fake.calls)
    await press(fake, exam.message_id, exam.button("Finish"))
    confirm = fake.message(ALICE.id, exam.message_id)
    await fake.wait_until(lambda: "Finish now" in str(confirm.reply_markup))
    await press(fake, exam.message_id, confirm.button("Finish now"))
    await result_after(fake, since)
    learned = await bot.store.history(ALICE.id, "nca-multi-gpu-5", started)
    assert len(learned) == 2
    me = await say(fake, "/me")
    assert "haven't answered" in me.params["text"]


async def test_exam_with_a_count_out_of_range_says_so_and_writes_nothing(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """`/exam 5000` names the range; `/exam ten` gets the usage; neither starts an exam."""
    too_many = await say(fake, "/exam 5000")
    assert "An exam on this deck has 1–5 questions" in too_many.params["text"]
    usage = await say(fake, "/exam ten")
    assert "Usage: /exam" in usage.params["text"]
    assert await bot.store.open_exam(ALICE.id) is None
    assert await bot.store.get_exam(1) is None
    short = await start_exam(fake, "/exam 3")
    assert (short.text or "").startswith("📝 <b>1/3</b> · 5 min left")


async def test_exam_in_a_group_points_to_the_private_chat(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """A group gets a pointer to the private chat, and no exam starts."""
    group = FakeChat.group(-4001)
    since = len(fake.calls)
    fake.send_message(group, ALICE, "/exam")
    call = await fake.wait_for_call("sendMessage", since=since)
    assert "runs in a private chat with me: open @quizbot_test_bot" in call.params["text"]
    assert await bot.store.open_exam(ALICE.id) is None


async def test_stale_forged_and_foreign_exam_buttons_get_an_alert_and_write_nothing(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """After submission, forged, or someone else's: a clear alert, no edit, no write."""
    exam = await start_exam(fake)
    exam_id = exam_id_of(exam)
    bob = await press(fake, exam.message_id, f"xa:{exam_id}:0:1", user=BOB)
    assert bob.show_alert
    assert bob.text == "This is someone else's exam. Send /exam in private to take your own."
    forged = await press(fake, exam.message_id, "xa:999:0:1")
    assert forged.text == "Sorry, this button doesn't belong to an exam I know. Send /exam for one."
    beyond = await press(fake, exam.message_id, f"xa:{exam_id}:7:1")
    assert beyond.show_alert
    assert all(item.chosen is None for item in await bot.store.exam_items(exam_id))

    since = len(fake.calls)
    await press(fake, exam.message_id, exam.button("Finish"))
    await fake.wait_for_call("editMessageText", since=since)
    confirm = fake.message(ALICE.id, exam.message_id)
    await press(fake, exam.message_id, confirm.button("Finish now"))
    await result_after(fake, since)
    await fake.idle()
    since = len(fake.calls)
    stale = await press(fake, exam.message_id, f"xa:{exam_id}:0:1")
    assert stale.show_alert
    assert stale.text == "This exam is over and submitted. Send /exam for a new one."
    await fake.idle()
    assert [c.method for c in fake.calls[since:] if c.method != "getUpdates"] == [
        "answerCallbackQuery"
    ]
    assert all(item.chosen is None for item in await bot.store.exam_items(exam_id))
