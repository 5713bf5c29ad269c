"""Sending images: the upload made once, then its file_id; a file_id Telegram no longer knows
uploaded again; transient failures retried without the photo or the question coming twice."""

from __future__ import annotations

import pytest

from bot.playground.botapi import ApiError, BotApiServer
from bot.playground.botapi.files import WRONG_FILE, FileStore
from tests.e2e.conftest import ALICE, alice_private
from tests.e2e.helpers.diagrams import (
    DIAGRAM,
    LONG_TEXT,
    PICTURES,
    StartOn,
    is_upload,
    photo_question,
    press,
    question,
    uploads,
)
from tests.e2e.helpers.faults import TRANSIENT, has_buttons, settle
from tests.e2e.helpers.group import right_and_wrong
from tests.fakes.clock import FakeClock

REFUSED = f"Bad Request: {WRONG_FILE}"  # Telegram's answer to a file_id it does not know


async def test_an_image_sent_again_goes_by_its_file_id(
    fake: BotApiServer, start_on: StartOn
) -> None:
    """The second question on the same image sends the file_id Telegram gave the first upload:
    one upload, one stored file, the same photo."""
    async with start_on([question("q1"), question("q2")]) as bot:
        first, _ = await photo_question(fake, alice_private(), ALICE)
        right, _, _ = await right_and_wrong(bot, first)
        await press(fake, alice_private(), ALICE, first, right)
        await fake.idle()
        second, _ = await photo_question(fake, alice_private(), ALICE)
        assert second.message_id != first.message_id
        sends = fake.calls_to("sendPhoto")
        assert [is_upload(c) for c in sends] == [True, False]
        assert sends[1].params["photo"] == first.photo_file_id
        assert len(fake.files) == 1
        assert second.photo_file_id == first.photo_file_id


@pytest.mark.parametrize("fault", ["502", "timeout", "dropped", "429"])
async def test_a_photo_that_fails_once_is_retried_and_arrives_once(
    fake: BotApiServer, start_on: StartOn, clock: FakeClock, fault: str
) -> None:
    """A transient fault on the question's sendPhoto: the outbox tries again later and the
    learner gets the question exactly once."""
    async with start_on([question("q1")]) as bot:
        injected = fake.inject("sendPhoto", TRANSIENT[fault])
        fake.send_message(alice_private(), ALICE, "/quiz")
        await fake.wait_until(lambda: bool(injected.hits), what="the failed sendPhoto")
        await fake.idle()
        assert not fake.bot_messages(ALICE.id)
        await settle(fake, bot, clock, 31)
        sends = fake.calls_to("sendPhoto")
        assert [c.fault is not None for c in sends] == [True, False]
        (photo,) = fake.bot_messages(ALICE.id)
        assert [b["text"] for b in photo.buttons] == ["A", "B", "C", "D"]
        assert not await bot.store.pending_effects(ALICE.id, 1)


@pytest.mark.parametrize("fault", ["502", "429"])
async def test_a_long_question_whose_text_fails_once_shows_its_photo_once(
    fake: BotApiServer, start_on: StartOn, clock: FakeClock, fault: str
) -> None:
    """The photo went out, the question's text after it failed: the retry sends only the text,
    so the learner sees the photo once and the question once."""
    async with start_on([question("long", text=LONG_TEXT)]) as bot:
        injected = fake.inject("sendMessage", TRANSIENT[fault], when=has_buttons)
        fake.send_message(alice_private(), ALICE, "/quiz")
        await fake.wait_until(lambda: bool(injected.hits), what="the failed question text")
        await fake.idle()
        await settle(fake, bot, clock, 31)
        photo, text = fake.bot_messages(ALICE.id)
        assert photo.is_photo
        assert LONG_TEXT in text.shown_text
        assert [b["text"] for b in text.buttons] == ["A", "B", "C", "D"]
        assert [c.ok for c in fake.calls_to("sendPhoto")] == [True]
        assert not await bot.store.pending_effects(ALICE.id, 1)
        right, _, _ = await right_and_wrong(bot, text)
        assert await press(fake, alice_private(), ALICE, text, right) == "✅ Correct"


@pytest.mark.parametrize("how", ["the fake forgot its files", "a 400 wrong file identifier"])
async def test_a_file_id_telegram_no_longer_knows_is_uploaded_again(
    fake: BotApiServer, start_on: StartOn, how: str
) -> None:
    """sendPhoto refusing the cached file_id: the bot uploads the image again in the same try,
    the question arrives once, and the new file_id is used from then on."""
    async with start_on([question("q1"), question("q2"), question("q3")]) as bot:
        first, _ = await photo_question(fake, alice_private(), ALICE)
        right, _, _ = await right_and_wrong(bot, first)
        await press(fake, alice_private(), ALICE, first, right)
        await fake.idle()
        if how == "the fake forgot its files":
            fake.files = FileStore()
        else:
            fake.inject("sendPhoto", ApiError(400, REFUSED), when=lambda p: not uploads(p))
        second, _ = await photo_question(fake, alice_private(), ALICE)
        sends = fake.calls_to("sendPhoto")
        assert [(is_upload(c), c.ok) for c in sends] == [(True, True), (False, False), (True, True)]
        assert sends[1].description == REFUSED
        assert second.photo_file_id is not None
        assert fake.photo_bytes(second.photo_file_id) == (PICTURES[DIAGRAM], "image/png")
        assert [m.message_id for m in fake.bot_messages(ALICE.id) if m.is_photo] == [
            first.message_id,
            second.message_id,
        ]
        right, _, _ = await right_and_wrong(bot, second)
        await press(fake, alice_private(), ALICE, second, right)
        await fake.idle()
        await photo_question(fake, alice_private(), ALICE)
        third = fake.calls_to("sendPhoto")[-1]
        assert not is_upload(third)
        assert third.params["photo"] == second.photo_file_id
