"""sendPhoto and getFile through a real PTB ``Bot``: uploads, file_ids, Telegram's checks in
Telegram's order, its error texts, and the download route."""

from __future__ import annotations

import base64

import httpx
import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, ReplyParameters
from telegram.error import BadRequest

from bot.playground.botapi import BotApiServer, FakeChat, FakeUser
from bot.playground.botapi.photos import MAX_PHOTO_BYTES
from tests.bot.playground.botapi.pictures import jpeg, png

ALICE = FakeUser(1001, "Alice", username="alice")
CHAT = FakeChat.private(ALICE).id
DIAGRAM = png(48, 32)
WRONG_FILE = "Bad Request: wrong file identifier/HTTP URL specified"
# Well-formed as Telegram's file_ids are (base64url, a version byte last), never given out here.
FOREIGN = base64.urlsafe_b64encode(b"\x02\x00\x00\x00" + b"x" * 20 + b"\x04").decode()
KEYBOARD = InlineKeyboardMarkup([[InlineKeyboardButton("A", callback_data="a")]])


def last_error(fake: BotApiServer) -> str | None:
    return fake.calls[-1].description


async def refused(fake: BotApiServer, bot: Bot, photo: bytes | str, **kwargs: object) -> str:
    """The error text Telegram answers sendPhoto with (and that nothing was stored)."""
    stored = len(fake.chat_messages(CHAT))
    with pytest.raises(BadRequest):
        await bot.send_photo(CHAT, photo, **kwargs)  # type: ignore[arg-type]
    assert len(fake.chat_messages(CHAT)) == stored
    return str(last_error(fake))


async def test_an_uploaded_png_becomes_a_photo_message(fake: BotApiServer, bot: Bot) -> None:
    """The Message has one PhotoSize (size from the PNG header) and the parsed caption."""
    sent = await bot.send_photo(
        CHAT, DIAGRAM, caption="<b>Q1</b> &lt;which?", parse_mode="HTML", reply_markup=KEYBOARD
    )
    (size,) = sent.photo
    assert (size.width, size.height, size.file_size) == (48, 32, len(DIAGRAM))
    assert size.file_id
    assert size.file_unique_id
    assert size.file_id != size.file_unique_id
    assert sent.caption == "Q1 <which?"
    assert [(e.type, e.offset, e.length) for e in sent.caption_entities] == [("bold", 0, 2)]
    assert sent.reply_markup == KEYBOARD
    assert sent.text is None
    stored = fake.message(CHAT, sent.message_id)
    assert (stored.photo_file_id, stored.text) == (size.file_id, None)
    assert (stored.caption, stored.visible_caption) == ("<b>Q1</b> &lt;which?", "Q1 <which?")
    assert stored.caption_entities == [{"type": "bold", "offset": 0, "length": 2}]
    assert stored.shown_text == "Q1 <which?"
    assert fake.photo_bytes(size.file_id) == (DIAGRAM, "image/png")


async def test_a_jpeg_is_sized_from_its_frame_header(fake: BotApiServer, bot: Bot) -> None:
    """A JPEG's width and height are read from its SOF0 segment."""
    (size,) = (await bot.send_photo(CHAT, jpeg(640, 480))).photo
    assert (size.width, size.height) == (640, 480)
    assert fake.photo_bytes(size.file_id) == (jpeg(640, 480), "image/jpeg")


async def test_upload_bytes_are_kept_exactly(fake: BotApiServer, bot: Bot) -> None:
    """A file whose bytes look like multipart framing downloads back byte for byte."""
    tricky = DIAGRAM + b"\r\n--boundary\r\n\r\n\r\x00\n\xff" * 50 + b"\r"
    sent = await bot.send_photo(CHAT, tricky)
    file = await bot.get_file(sent.photo[-1].file_id)
    assert bytes(await file.download_as_bytearray()) == tricky


async def test_a_file_id_sends_the_same_photo_again(fake: BotApiServer, bot: Bot) -> None:
    """Resending by file_id stores no new file and gives the same PhotoSize."""
    first = await bot.send_photo(CHAT, DIAGRAM)
    again = await bot.send_photo(CHAT, first.photo[-1].file_id, caption="again")
    assert again.photo == first.photo
    assert again.photo[-1].file_unique_id == first.photo[-1].file_unique_id
    assert (again.caption, len(fake.files)) == ("again", 1)
    other = await bot.send_photo(CHAT, DIAGRAM)  # the same bytes uploaded again: a new file
    assert other.photo[-1].file_id != first.photo[-1].file_id
    assert len(fake.files) == 2


async def test_urls_and_unknown_file_ids_are_refused(fake: BotApiServer, bot: Bot) -> None:
    """A URL (no network here) and a file_id never given out get TDLib's answers."""
    assert await refused(fake, bot, "https://example.org/diagram.png") == WRONG_FILE
    assert await refused(fake, bot, FOREIGN) == WRONG_FILE  # another bot's file_id, say
    remote = "Bad Request: wrong remote file identifier specified: "
    assert await refused(fake, bot, "no such file") == remote + "Wrong character in the string"
    assert await refused(fake, bot, "AAAAA") == remote + "Wrong string length"
    last_symbol = "can't unserialize it. Wrong last symbol"
    assert await refused(fake, bot, "AAAA") == remote + last_symbol
    assert len(fake.files) == 0


async def test_a_request_without_a_photo_is_refused(fake: BotApiServer, bot: Bot) -> None:
    """No photo (or an attach:// naming no uploaded part) is 'there is no photo'."""
    for photo in ("", "attach://nothing"):
        with pytest.raises(BadRequest, match="There is no photo in the request"):
            await bot.send_photo(CHAT, photo)
        assert last_error(fake) == "Bad Request: there is no photo in the request"


async def test_what_is_not_a_png_or_jpeg_fails_image_processing(
    fake: BotApiServer, bot: Bot
) -> None:
    """GIF, text, a PNG signature alone or a JPEG without a frame: IMAGE_PROCESS_FAILED."""
    for data in (b"GIF89a\x01\x00\x01\x00", b"a diagram", DIAGRAM[:8], b"\xff\xd8\xff\xd9"):
        assert await refused(fake, bot, data) == "Bad Request: IMAGE_PROCESS_FAILED"
    assert await refused(fake, bot, b"") == "Bad Request: file must be non-empty"


async def test_a_photo_over_10_mb_is_too_big(fake: BotApiServer, bot: Bot) -> None:
    """10 MB (10485760 bytes) pass; one byte more gets TDLib's 'too big for a photo'."""
    at_limit = DIAGRAM + b"\x00" * (MAX_PHOTO_BYTES - len(DIAGRAM))
    assert (await bot.send_photo(CHAT, at_limit, read_timeout=30)).photo[-1].width == 48
    too_big = at_limit + b"\x00"
    assert await refused(fake, bot, too_big, read_timeout=30) == (
        "Bad Request: file of size 10485761 bytes is too big for a photo; "
        "the maximum size is 10485760 bytes"
    )


async def test_impossible_dimensions_are_refused(fake: BotApiServer, bot: Bot) -> None:
    """Width + height over 10000, or a side over 20 times the other: PHOTO_INVALID_DIMENSIONS."""
    for width, height in ((5001, 5000), (21, 1), (1, 21)):
        error = await refused(fake, bot, png(width, height))
        assert error == "Bad Request: PHOTO_INVALID_DIMENSIONS", (width, height)
    assert (await bot.send_photo(CHAT, png(20, 1))).photo[-1].width == 20


async def test_caption_is_parsed_strictly_and_at_most_1024_characters(
    fake: BotApiServer, bot: Bot
) -> None:
    """1024 visible characters pass whatever the markup; 1025 or broken HTML do not."""
    fits = "<b>" + "a" * 1020 + "</b>&amp;é😀!"
    sent = await bot.send_photo(CHAT, DIAGRAM, caption=fits, parse_mode="HTML")
    assert sent.caption is not None
    assert len(sent.caption) == 1024
    long = "a" * 1025
    assert await refused(fake, bot, DIAGRAM, caption=long) == (
        "Bad Request: message caption is too long"
    )
    assert await refused(fake, bot, DIAGRAM, caption="<b>x", parse_mode="HTML") == (
        "Bad Request: can't parse entities: Can't find end tag corresponding to start tag \"b\""
    )
    plain = await bot.send_photo(CHAT, DIAGRAM, caption="<b>x")  # no parse_mode: kept as is
    assert (plain.caption, plain.caption_entities) == ("<b>x", ())
    fake.strict_html_escaping = True
    assert (await refused(fake, bot, DIAGRAM, caption="1 & 2", parse_mode="HTML")).endswith(
        'Unescaped "&" at byte offset 2 (strict_escaping)'
    )


async def test_an_empty_caption_is_no_caption(fake: BotApiServer, bot: Bot) -> None:
    """A caption of markup around spaces leaves the photo without one (and without the flag)."""
    sent = await bot.send_photo(
        CHAT, DIAGRAM, caption="<b> </b>", parse_mode="HTML", show_caption_above_media=True
    )
    assert (sent.caption, sent.show_caption_above_media) == (None, None)
    assert fake.message(CHAT, sent.message_id).shown_text == ""


async def test_checks_come_in_telegrams_order(fake: BotApiServer, bot: Bot) -> None:
    """No photo, then the caption's HTML, then the file, then its length, then the image."""
    bad_html, long = {"caption": "<b>", "parse_mode": "HTML"}, {"caption": "a" * 1025}
    assert await refused(fake, bot, "", **bad_html) == (
        "Bad Request: there is no photo in the request"
    )
    error = await refused(fake, bot, "https://example.org/x.png", **bad_html)
    assert error.startswith("Bad Request: can't parse entities")
    assert await refused(fake, bot, "https://example.org/x.png", **long) == WRONG_FILE
    assert await refused(fake, bot, b"GIF89a", **long) == "Bad Request: message caption is too long"


async def test_replies_threads_and_caption_above_media(fake: BotApiServer, bot: Bot) -> None:
    """reply_parameters, message_thread_id and show_caption_above_media work as for texts."""
    question = await bot.send_message(CHAT, "Look:")
    sent = await bot.send_photo(
        CHAT,
        DIAGRAM,
        caption="this one",
        show_caption_above_media=True,
        reply_parameters=ReplyParameters(question.message_id),
        message_thread_id=7,
    )
    assert sent.show_caption_above_media is True
    assert sent.reply_to_message is not None
    assert sent.reply_to_message.text == "Look:"
    assert sent.message_thread_id == 7
    assert await refused(fake, bot, DIAGRAM, reply_parameters=ReplyParameters(99)) == (
        "Bad Request: message to be replied not found"
    )
    lenient = ReplyParameters(99, allow_sending_without_reply=True)
    assert (await bot.send_photo(CHAT, DIAGRAM, reply_parameters=lenient)).reply_to_message is None


async def test_get_file_and_the_download_route(fake: BotApiServer, bot: Bot) -> None:
    """getFile gives a File with a file_path; GET /file/bot<token>/<path> serves the bytes."""
    (size,) = (await bot.send_photo(CHAT, DIAGRAM)).photo
    file = await bot.get_file(size.file_id)
    assert (file.file_id, file.file_unique_id, file.file_size) == (
        size.file_id,
        size.file_unique_id,
        len(DIAGRAM),
    )
    path = fake.files.get(size.file_id).file_path  # type: ignore[union-attr]
    assert path.startswith("photos/")
    assert path.endswith(".png")
    async with httpx.AsyncClient(base_url=fake.url) as http:
        answer = await http.get(f"/file/bot{fake.token}/{path}")
        assert (answer.status_code, answer.content) == (200, DIAGRAM)
        for wrong in (f"/file/bot{fake.token}/photos/file_9.png", f"/file/bot1:WRONG/{path}"):
            answer = await http.get(wrong)
            assert answer.status_code == 404
            assert answer.json() == {"ok": False, "error_code": 404, "description": "Not Found"}
    with pytest.raises(BadRequest, match="Invalid file_id"):
        await bot.get_file(FOREIGN)
    assert last_error(fake) == "Bad Request: invalid file_id"
    with pytest.raises(BadRequest):
        await bot.get_file("")
    assert last_error(fake) == "Bad Request: file_id not specified"
