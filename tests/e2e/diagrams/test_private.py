"""A learner alone with image questions: the question as one captioned photo or as the photo
then its text, the answer marking whichever holds the text, and the explanation's own image."""

from __future__ import annotations

from bot.playground.botapi import BotApiServer
from tests.e2e.conftest import ALICE, alice_private
from tests.e2e.helpers.diagrams import (
    ANSWER_DIAGRAM,
    DIAGRAM,
    EXPLANATION,
    LONG_TEXT,
    PICTURES,
    StartOn,
    photo_question,
    press,
    question,
)
from tests.e2e.helpers.group import right_and_wrong


async def test_a_question_that_fits_a_caption_is_one_photo_with_its_letter_buttons(
    fake: BotApiServer, start_on: StartOn
) -> None:
    """/quiz: one photo message captioned with the question and its options, A–D under it,
    holding the deck's PNG byte for byte."""
    async with start_on([question("q1")]):
        photo, buttons = await photo_question(fake, alice_private(), ALICE)
        assert buttons.message_id == photo.message_id
        assert [m.message_id for m in fake.bot_messages(ALICE.id)] == [photo.message_id]
        caption = photo.caption or ""
        assert photo.text is None
        assert len(photo.shown_text) <= 1024
        assert caption.startswith("❓ <b>Figures</b> · <i>nccl</i>")
        assert "Which topology does the diagram show (q1)?" in caption
        for option in ("A ring", "A tree", "A mesh", "A star"):
            assert f"</b> {option}" in caption
        assert [b["text"] for b in photo.buttons] == ["A", "B", "C", "D"]
        assert photo.photo_file_id is not None
        assert fake.photo_bytes(photo.photo_file_id) == (PICTURES[DIAGRAM], "image/png")


async def test_an_answer_edits_the_caption_and_the_explanation_follows(
    fake: BotApiServer, start_on: StartOn
) -> None:
    """A wrong press: the caption gets ✅ on the right option, ❌ and "your answer" on the
    chosen one, loses its buttons; the explanation is a text reply, as for text questions."""
    async with start_on([question("q1")]) as bot:
        photo, _ = await photo_question(fake, alice_private(), ALICE)
        _, wrong, letter = await right_and_wrong(bot, photo)
        since = len(fake.calls)
        toast = await press(fake, alice_private(), ALICE, photo, wrong)
        assert toast == f"❌ Not quite — it was {letter}"
        reply = await fake.wait_for_call("sendMessage", since=since)
        await fake.idle()
        marked = fake.message(ALICE.id, photo.message_id)
        caption = marked.caption or ""
        assert f"✅ <b>{letter})</b> A ring" in caption
        assert "❌" in caption
        assert "your answer" in caption
        assert not marked.callback_data
        assert not fake.calls_to("editMessageText")
        assert [c.ok for c in fake.calls[since:] if c.method == "editMessageCaption"] == [True]
        text = reply.params["text"]
        assert text.startswith(f"❌ <b>Not quite.</b> The answer is <b>{letter})</b> A ring")
        assert f"💡 {EXPLANATION}" in text
        assert reply.params["reply_parameters"]["message_id"] == photo.message_id
        explanation = fake.message(ALICE.id, reply.result["message_id"])
        assert [b["text"] for b in explanation.buttons] == ["⚑ Report"]
        assert not fake.calls_to("sendPhoto", lambda p: p.get("reply_parameters") is not None)


async def test_a_question_too_long_for_a_caption_is_the_photo_then_its_text(
    fake: BotApiServer, start_on: StartOn
) -> None:
    """The photo alone, then the question as text with the buttons; the answer edits that text
    and the photo is left as it was."""
    async with start_on([question("long", text=LONG_TEXT)]) as bot:
        photo, text = await photo_question(fake, alice_private(), ALICE)
        assert photo.caption is None
        assert not photo.buttons
        assert text.message_id > photo.message_id
        assert not text.is_photo
        assert LONG_TEXT in text.shown_text
        assert len(text.shown_text) > 1024
        assert [b["text"] for b in text.buttons] == ["A", "B", "C", "D"]
        right, _, letter = await right_and_wrong(bot, text)
        assert await press(fake, alice_private(), ALICE, text, right) == "✅ Correct"
        await fake.idle()
        marked = fake.message(ALICE.id, text.message_id)
        assert f"✅ <b>{letter})</b> A ring  ← <i>your answer</i>" in (marked.text or "")
        assert not marked.callback_data
        assert not fake.calls_to("editMessageCaption")
        assert fake.message(ALICE.id, photo.message_id).edit_count == 0
        explanation = fake.bot_messages(ALICE.id)[-1]
        assert (explanation.text or "").startswith("✅ <b>Correct!</b>")
        assert explanation.reply_to == text.message_id


async def test_an_explanation_image_comes_with_the_explanation(
    fake: BotApiServer, start_on: StartOn
) -> None:
    """With `explanation_image:` the explanation is a photo of that image, captioned with the
    verdict and the explanation, replying to the question, with ⚑ Report under it."""
    async with start_on([question("q1", explanation_image=ANSWER_DIAGRAM)]) as bot:
        photo, _ = await photo_question(fake, alice_private(), ALICE)
        right, _, _ = await right_and_wrong(bot, photo)
        await press(fake, alice_private(), ALICE, photo, right)
        await fake.idle()
        explanation = fake.bot_messages(ALICE.id)[-1]
        assert explanation.is_photo
        assert explanation.photo_file_id is not None
        assert fake.photo_bytes(explanation.photo_file_id) == (
            PICTURES[ANSWER_DIAGRAM],
            "image/png",
        )
        caption = explanation.caption or ""
        assert caption.startswith("✅ <b>Correct!</b>")
        assert f"💡 {EXPLANATION}" in caption
        assert explanation.reply_to == photo.message_id
        assert [b["text"] for b in explanation.buttons] == ["⚑ Report"]
        assert not fake.calls_to("sendMessage", lambda p: EXPLANATION in str(p["text"]))
