"""An exam against the clock and restarts: the deadline submits it (once, through the outbox),
an overdue exam is submitted at start-up, and an open one resumes where it was."""

from __future__ import annotations

from bot.app import RunningBot
from bot.playground.botapi import BotApiServer, internal_server_error
from tests.e2e.conftest import ALICE, StartBot
from tests.e2e.helpers.exam import (
    EXAM_MINUTES,
    RESULT,
    exam_id_of,
    letters,
    press,
    press_and_show,
    result_after,
    say,
    start_exam,
)
from tests.fakes.clock import FakeClock


async def test_the_deadline_submits_the_exam_through_the_outbox(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """At the deadline the worker submits it: a failed send is retried, the message closed."""
    exam = await start_exam(fake)
    exam_id = exam_id_of(exam)
    exam = await press_and_show(fake, exam, "A")
    fake.inject("sendMessage", internal_server_error(), times=1)
    since = len(fake.calls)
    clock.advance(minutes=EXAM_MINUTES)
    await bot.ticker.tick()
    await fake.wait_for_call("sendMessage", lambda c: c.status == 500, since=since)
    await bot.sender.idle()
    clock.advance(seconds=2)  # the retry's back-off
    await bot.ticker.tick()
    result = await result_after(fake, since)
    text = result.text or ""
    assert "Time used: 8 min 0 s of 8 min 0 s (submitted at the deadline)" in text
    assert "Unanswered: 4." in text
    closed = fake.message(ALICE.id, exam.message_id)
    assert closed.reply_markup is None
    assert (closed.text or "").startswith("⏰ <b>Time's up.</b>")
    await bot.ticker.tick()
    await fake.idle()
    results = fake.calls_to("sendMessage", lambda p: str(p["text"]).startswith(RESULT))
    assert [call.status for call in results] == [500, 200]
    late = await press(fake, exam.message_id, f"xa:{exam_id}:1:0")
    assert late.text == "This exam is over and submitted. Send /exam for a new one."


async def test_a_press_after_the_deadline_submits_the_exam_at_once(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """Out of time before the worker came by: the press is not stored, the exam is submitted."""
    exam = await start_exam(fake)
    clock.advance(minutes=EXAM_MINUTES, seconds=1)
    since = len(fake.calls)
    answer = await press(fake, exam.message_id, exam.button("A"))
    assert answer.text == "⏰ Time's up: your exam was submitted. The result follows."
    result = await result_after(fake, since)
    assert "Score: <b>0/5 (0%)</b>" in (result.text or "")


async def test_an_open_exam_resumes_where_it_was_after_a_restart(
    fake: BotApiServer, start_bot: StartBot, clock: FakeClock
) -> None:
    """After a restart its message still works; /exam offers Resume, which moves it to a new
    message at the same page, and the old message's buttons stop working cleanly."""
    async with start_bot():
        exam = await start_exam(fake)
        exam_id = exam_id_of(exam)
        exam = await press_and_show(fake, exam, "C")
        exam = await press_and_show(fake, exam, "▶")
    clock.advance(minutes=3)
    async with start_bot():
        exam = await press_and_show(fake, exam, "▶")
        assert (exam.text or "").startswith("📝 <b>3/5</b> · 5 min left")
        prompt_call = await say(fake, "/exam")
        assert prompt_call.params["text"] == (
            "📝 You have an exam in progress: 1/5 answered, 5 min left. "
            "Resume it, or finish it now?"
        )
        prompt = fake.message(ALICE.id, prompt_call.result["message_id"])
        since = len(fake.calls)
        await press(fake, prompt.message_id, prompt.button("Resume"))
        moved = await fake.wait_for_call("sendMessage", since=since)
        resumed = fake.message(ALICE.id, moved.result["message_id"])
        assert (resumed.text or "").startswith("📝 <b>3/5</b> · 5 min left")
        await fake.wait_until(lambda: fake.message(ALICE.id, exam.message_id).reply_markup is None)
        old = await press(fake, exam.message_id, f"xg:{exam_id}:0")
        assert old.text == "This exam has moved to a newer message: carry on there."
        first = await press_and_show(fake, resumed, "◀")
        first = await press_and_show(fake, first, "◀")
        assert "● C" in letters(first)


async def test_an_exam_overdue_at_start_up_is_submitted_at_once(
    fake: BotApiServer, start_bot: StartBot, clock: FakeClock
) -> None:
    """The bot was down past the deadline: the result goes out on start, unasked."""
    async with start_bot():
        exam = await start_exam(fake)
        exam_id = exam_id_of(exam)
        await press_and_show(fake, exam, "B")
    clock.advance(hours=2)
    since = len(fake.calls)
    async with start_bot():
        result = await result_after(fake, since)
        assert "(submitted at the deadline)" in (result.text or "")
        assert fake.message(ALICE.id, exam.message_id).reply_markup is None
        fresh = await start_exam(fake)
        assert exam_id_of(fresh) != exam_id
