"""Texts through the fake's API are checked as Telegram checks them (PTB ``Bot`` as the client)."""

from __future__ import annotations

import pytest
from telegram import Bot
from telegram.error import BadRequest

from bot.playground.botapi import BotApiServer, FakeChat, FakeUser

ALICE = FakeUser(1001, "Alice", username="alice")
CHAT = FakeChat.private(ALICE).id
PARSE = "Bad Request: can't parse entities: "


def last_error(fake: BotApiServer) -> str | None:
    return fake.calls[-1].description


async def test_malformed_html_is_rejected_and_nothing_is_stored(
    fake: BotApiServer, bot: Bot
) -> None:
    """sendMessage with broken HTML answers Telegram's 400 text and stores no message."""
    with pytest.raises(BadRequest, match="Can't parse entities: unsupported start tag"):
        await bot.send_message(CHAT, "Hello there <foo>", parse_mode="HTML")
    assert last_error(fake) == PARSE + 'Unsupported start tag "foo" at byte offset 12'
    with pytest.raises(BadRequest):
        await bot.send_message(CHAT, "<b>bold", parse_mode="HTML")
    assert last_error(fake) == PARSE + 'Can\'t find end tag corresponding to start tag "b"'
    with pytest.raises(BadRequest):
        await bot.send_message(CHAT, "2 < 3", parse_mode="HTML")
    assert last_error(fake) == PARSE + 'Unsupported start tag "" at byte offset 2'
    assert fake.bot_messages(CHAT) == []


async def test_parse_mode_is_case_insensitive_and_checked(fake: BotApiServer, bot: Bot) -> None:
    """'html' and 'HtMl' parse; no parse_mode keeps tags as text; an unknown mode is refused."""
    for mode in ("html", "HtMl"):
        with pytest.raises(BadRequest):
            await bot.send_message(CHAT, "x</b>", parse_mode=mode)
        assert last_error(fake) == PARSE + "Unexpected end tag at byte offset 1"
    plain = await bot.send_message(CHAT, "x</b> <foo>")
    assert fake.message(CHAT, plain.message_id).visible_text == "x</b> <foo>"
    with pytest.raises(BadRequest, match="Unsupported parse_mode"):
        await bot.send_message(CHAT, "x", parse_mode="XML")
    assert last_error(fake) == "Bad Request: unsupported parse_mode"


async def test_stored_message_keeps_raw_text_and_what_telegram_shows(
    fake: BotApiServer, bot: Bot
) -> None:
    """StoredMessage.text is the raw HTML; visible_text/parsed_entities are what users see."""
    sent = await bot.send_message(CHAT, "<b>Q1</b> &lt;3 <i>😀!</i>", parse_mode="HTML")
    stored = fake.message(CHAT, sent.message_id)
    assert stored.text == "<b>Q1</b> &lt;3 <i>😀!</i>"
    assert stored.visible_text == "Q1 <3 😀!"
    assert stored.parsed_entities == [
        {"type": "bold", "offset": 0, "length": 2},
        {"type": "italic", "offset": 6, "length": 3},
    ]


async def test_length_limit_counts_visible_utf16_units(fake: BotApiServer, bot: Bot) -> None:
    """4096 UTF-16 units of visible text pass however long the markup; 4097 do not."""
    long_markup = "<b>" + "a" * 4094 + "</b>&amp;é"  # 4106 characters, 4096 visible
    assert (await bot.send_message(CHAT, long_markup, parse_mode="HTML")).message_id == 1
    with pytest.raises(BadRequest, match="Message is too long"):
        await bot.send_message(CHAT, "a" * 4095 + "😀")
    assert last_error(fake) == "Bad Request: message is too long"
    with pytest.raises(BadRequest):
        await bot.edit_message_text("<i>" + "b" * 4097 + "</i>", CHAT, 1, parse_mode="HTML")
    assert last_error(fake) == "Bad Request: MESSAGE_TOO_LONG"


async def test_empty_visible_text_is_refused(fake: BotApiServer, bot: Bot) -> None:
    """Markup around nothing (or only spaces) is 'message text is empty', for send and edit."""
    with pytest.raises(BadRequest, match="Message text is empty"):
        await bot.send_message(CHAT, "<b> </b><i></i>", parse_mode="HTML")
    assert last_error(fake) == "Bad Request: message text is empty"
    sent = await bot.send_message(CHAT, "fine")
    with pytest.raises(BadRequest, match="Message text is empty"):
        await bot.edit_message_text("<code>\n</code>", CHAT, sent.message_id, parse_mode="HTML")


async def test_edit_is_checked_and_compared_by_what_users_see(fake: BotApiServer, bot: Bot) -> None:
    """A malformed edit leaves the message alone; the same visible content is 'not modified'."""
    sent = await bot.send_message(CHAT, "<b>Q</b> one", parse_mode="HTML")
    with pytest.raises(BadRequest):
        await bot.edit_message_text("<b>Q two</i>", CHAT, sent.message_id, parse_mode="HTML")
    unmatched = 'Unmatched end tag at byte offset 8, expected "</b>", found "</i>"'
    assert last_error(fake) == PARSE + unmatched
    stored = fake.message(CHAT, sent.message_id)
    assert (stored.visible_text, stored.edit_count) == ("Q one", 0)
    with pytest.raises(BadRequest, match="Message is not modified"):
        await bot.edit_message_text(
            "<strong>Q</strong> one", CHAT, sent.message_id, parse_mode="HTML"
        )
    await bot.edit_message_text("<i>Q</i> one", CHAT, sent.message_id, parse_mode="HTML")
    assert stored.parsed_entities == [{"type": "italic", "offset": 0, "length": 1}]
    assert stored.text == "<i>Q</i> one"


async def test_strict_html_escaping_rejects_bare_ampersand(fake: BotApiServer, bot: Bot) -> None:
    """Telegram keeps a bare '&'; with strict_html_escaping the fake refuses it."""
    await bot.send_message(CHAT, "Tom & Jerry", parse_mode="HTML")
    fake.strict_html_escaping = True
    with pytest.raises(BadRequest):
        await bot.send_message(CHAT, "Tom & Jerry", parse_mode="HTML")
    assert last_error(fake) == PARSE + 'Unescaped "&" at byte offset 4 (strict_escaping)'
    await bot.send_message(CHAT, "Tom &amp; Jerry & co", parse_mode=None)  # plain text: no check


async def test_callback_answer_text_over_200_characters_is_refused(
    fake: BotApiServer, bot: Bot
) -> None:
    """answerCallbackQuery accepts 200 characters of text and refuses 201 (MESSAGE_TOO_LONG)."""
    query = fake.press_button(FakeChat.private(ALICE), ALICE, 1, "x")
    with pytest.raises(BadRequest, match="Message_too_long"):
        await bot.answer_callback_query(query, "y" * 201)
    assert last_error(fake) == "Bad Request: MESSAGE_TOO_LONG"
    assert query not in fake.callback_answers
    assert await bot.answer_callback_query(query, "y" * 200)
    assert (await fake.callback_answer(query)).text == "y" * 200
