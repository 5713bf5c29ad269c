"""Image questions in a group: presses, the live count and the reveal edit the photo's caption;
an explanation too long for the caption follows the reveal as a reply on its own image."""

from __future__ import annotations

from bot.playground.botapi import BotApiServer
from tests.e2e.helpers.diagrams import (
    ANSWER_DIAGRAM,
    EXPLANATION,
    PICTURES,
    StartOn,
    photo_question,
    press,
    question,
)
from tests.e2e.helpers.group import GROUP, MEMBERS, OPEN_SECONDS, TOPIC, right_and_wrong, tick
from tests.fakes.clock import FakeClock


async def test_a_group_image_question_counts_and_reveals_in_its_caption(
    fake: BotApiServer, start_on: StartOn, clock: FakeClock
) -> None:
    """In a forum topic: members' presses get alerts, the live count and, once the clock passes
    the deadline, the reveal edit the caption; no text message is sent or edited."""
    async with start_on([question("q1")]) as bot:
        photo, _ = await photo_question(fake, GROUP, MEMBERS[0], thread=TOPIC)
        assert photo.thread_id == TOPIC
        assert "👥 0 answered" in (photo.caption or "")
        right, wrong, letter = await right_and_wrong(bot, photo)
        alerts = [
            await press(fake, GROUP, MEMBERS[1], photo, right),
            await press(fake, GROUP, MEMBERS[2], photo, wrong),
        ]
        assert alerts[0].startswith("✅ Correct!")
        assert alerts[1].startswith(f"❌ Not quite — it was {letter}.")
        clock.advance(seconds=6)  # past the live count's edit interval
        await tick(fake, bot)
        counted = fake.message(GROUP.id, photo.message_id)
        assert "👥 2 answered" in (counted.caption or "")
        assert counted.callback_data == photo.callback_data
        clock.advance(seconds=OPEN_SECONDS)
        await tick(fake, bot)
        revealed = fake.message(GROUP.id, photo.message_id)
        caption = revealed.caption or ""
        assert f"✅ <b>{letter})</b> A ring" in caption
        assert f"💡 {EXPLANATION}" in caption
        assert "👥 2 answered · 1 right" in caption
        assert "🥇 First right: Member1" in caption
        assert not revealed.callback_data
        assert not fake.calls_to("editMessageText")
        assert [m.message_id for m in fake.bot_messages(GROUP.id)] == [photo.message_id]
        late = await press(fake, GROUP, MEMBERS[3], photo, right)
        assert late == f"This question has closed — the answer was {letter}."


async def test_a_reveal_too_long_for_the_caption_replies_with_the_explanation_image(
    fake: BotApiServer, start_on: StartOn, clock: FakeClock
) -> None:
    """A group question whose explanation does not fit the caption: the reveal marks the caption
    (answer and tally) and the explanation follows as a reply, on its own image."""
    long = "The ring sends each chunk once around all eight GPUs. " * 17
    asked = question("q1", explanation=long, explanation_image=ANSWER_DIAGRAM)
    async with start_on([asked]) as bot:
        photo, _ = await photo_question(fake, GROUP, MEMBERS[0], thread=TOPIC)
        right, _, letter = await right_and_wrong(bot, photo)
        await press(fake, GROUP, MEMBERS[1], photo, right)
        clock.advance(seconds=OPEN_SECONDS + 1)
        await tick(fake, bot)
        revealed = fake.message(GROUP.id, photo.message_id)
        caption = revealed.caption or ""
        assert f"✅ <b>{letter})</b> A ring" in caption
        assert "👥 1 answered · 1 right" in caption
        assert "💡" not in caption
        assert not revealed.callback_data
        explanation = fake.bot_messages(GROUP.id)[-1]
        assert explanation.is_photo
        assert explanation.photo_file_id is not None
        assert fake.photo_bytes(explanation.photo_file_id) == (
            PICTURES[ANSWER_DIAGRAM],
            "image/png",
        )
        assert explanation.shown_text == f"💡 {long.strip()}"
        assert (explanation.reply_to, explanation.thread_id) == (photo.message_id, TOPIC)
