"""Photo messages after they are sent, through a real PTB ``Bot``: editMessageCaption and its
errors, editMessageText and editMessageReplyMarkup on a photo, and what updates carry."""

from __future__ import annotations

import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram.error import BadRequest

from bot.playground.botapi import NOT_MODIFIED, BotApiServer, FakeChat, FakeUser
from tests.bot.playground.botapi.pictures import png

ALICE = FakeUser(1001, "Alice", username="alice")
ALICE_CHAT = FakeChat.private(ALICE)
CHAT = ALICE_CHAT.id
DIAGRAM = png(48, 32)
KEYBOARD = InlineKeyboardMarkup([[InlineKeyboardButton("A", callback_data="a")]])


def last_error(fake: BotApiServer) -> str | None:
    return fake.calls[-1].description


async def question(bot: Bot) -> Message:
    return await bot.send_photo(
        CHAT, DIAGRAM, caption="<b>Q1</b> which?", parse_mode="HTML", reply_markup=KEYBOARD
    )


async def test_edit_caption_changes_caption_and_markup(fake: BotApiServer, bot: Bot) -> None:
    """The new caption is parsed, the keyboard kept only if sent again, the edit dated."""
    sent = await question(bot)
    edited = await bot.edit_message_caption(
        CHAT, sent.message_id, caption="<i>Q1</i> closed", parse_mode="HTML", reply_markup=KEYBOARD
    )
    assert isinstance(edited, Message)
    assert (edited.caption, edited.reply_markup, edited.photo) == (
        "Q1 closed",
        KEYBOARD,
        sent.photo,
    )
    assert [(e.type, e.offset, e.length) for e in edited.caption_entities] == [("italic", 0, 2)]
    assert edited.edit_date is not None
    stored = fake.message(CHAT, sent.message_id)
    assert (stored.caption, stored.edit_count) == ("<i>Q1</i> closed", 1)
    await bot.edit_message_caption(CHAT, sent.message_id, caption="Q1 closed")
    assert (stored.keyboard, stored.caption_entities, stored.edit_count) == ([], [], 2)


async def test_edit_caption_can_remove_it(fake: BotApiServer, bot: Bot) -> None:
    """Without a caption the photo keeps none; shown_text is then empty."""
    sent = await question(bot)
    edited = await bot.edit_message_caption(CHAT, sent.message_id, reply_markup=KEYBOARD)
    assert isinstance(edited, Message)
    assert (edited.caption, edited.caption_entities) == (None, ())
    stored = fake.message(CHAT, sent.message_id)
    assert (stored.caption, stored.visible_caption, stored.shown_text) == (None, None, "")


async def test_an_unchanged_caption_is_not_modified(fake: BotApiServer, bot: Bot) -> None:
    """The same visible caption, entities, place and markup: 'message is not modified'."""
    sent = await question(bot)
    with pytest.raises(BadRequest, match="Message is not modified"):
        await bot.edit_message_caption(
            CHAT,
            sent.message_id,
            caption="<strong>Q1</strong> which?",
            parse_mode="HTML",
            reply_markup=KEYBOARD,
        )
    assert last_error(fake) == NOT_MODIFIED
    assert fake.message(CHAT, sent.message_id).edit_count == 0
    await bot.edit_message_caption(
        CHAT,
        sent.message_id,
        caption="<b>Q1</b> which?",
        parse_mode="HTML",
        reply_markup=KEYBOARD,
        show_caption_above_media=True,
    )
    assert fake.message(CHAT, sent.message_id).show_caption_above_media


async def test_a_text_message_has_no_caption_to_edit(fake: BotApiServer, bot: Bot) -> None:
    """editMessageCaption on a text message is refused with Telegram's text."""
    sent = await bot.send_message(CHAT, "plain")
    with pytest.raises(BadRequest, match="There is no caption in the message to edit"):
        await bot.edit_message_caption(CHAT, sent.message_id, caption="new")
    assert last_error(fake) == "Bad Request: there is no caption in the message to edit"


async def test_a_photo_has_no_text_to_edit(fake: BotApiServer, bot: Bot) -> None:
    """editMessageText on a photo message is refused; the caption stays."""
    sent = await question(bot)
    with pytest.raises(BadRequest, match="There is no text in the message to edit"):
        await bot.edit_message_text("new", CHAT, sent.message_id)
    assert last_error(fake) == "Bad Request: there is no text in the message to edit"
    assert fake.message(CHAT, sent.message_id).shown_text == "Q1 which?"


async def test_an_edited_caption_over_1024_characters_is_refused(
    fake: BotApiServer, bot: Bot
) -> None:
    """The server's MEDIA_CAPTION_TOO_LONG (TDLib does not check an edit's length itself)."""
    sent = await question(bot)
    with pytest.raises(BadRequest):
        await bot.edit_message_caption(CHAT, sent.message_id, caption="a" * 1025)
    assert last_error(fake) == "Bad Request: MEDIA_CAPTION_TOO_LONG"
    assert fake.message(CHAT, sent.message_id).shown_text == "Q1 which?"


async def test_edit_caption_checks_the_message_first(fake: BotApiServer, bot: Bot) -> None:
    """A missing message, or one a user sent, cannot have its caption edited."""
    with pytest.raises(BadRequest):
        await bot.edit_message_caption(CHAT, 42, caption="x")
    assert last_error(fake) == "Bad Request: message to edit not found"
    user_message = fake.send_message(ALICE_CHAT, ALICE, "hi")
    with pytest.raises(BadRequest):
        await bot.edit_message_caption(CHAT, user_message["message_id"], caption="x")
    assert last_error(fake) == "Bad Request: message can't be edited"


async def test_reply_markup_edits_work_on_a_photo(fake: BotApiServer, bot: Bot) -> None:
    """editMessageReplyMarkup removes a photo question's buttons and keeps its caption."""
    sent = await question(bot)
    edited = await bot.edit_message_reply_markup(CHAT, sent.message_id, reply_markup=None)
    assert isinstance(edited, Message)
    assert (edited.reply_markup, edited.caption, edited.photo) == (None, "Q1 which?", sent.photo)
    assert fake.message(CHAT, sent.message_id).keyboard == []


async def test_a_press_on_a_photo_question_carries_photo_and_caption(
    fake: BotApiServer, bot: Bot
) -> None:
    """The callback query's message has the photo, the visible caption and its entities."""
    sent = await question(bot)
    fake.press_button(ALICE_CHAT, ALICE, sent.message_id, "a")
    (update,) = await bot.get_updates()
    assert isinstance(update, Update)
    assert update.callback_query is not None
    pressed = update.callback_query.message
    assert isinstance(pressed, Message)
    assert (pressed.photo, pressed.caption, pressed.text) == (sent.photo, "Q1 which?", None)
    assert pressed.caption_html == "<b>Q1</b> which?"
    data = fake.message(CHAT, sent.message_id).to_dict()
    assert data["caption_entities"] == [{"type": "bold", "offset": 0, "length": 2}]
    assert "text" not in data
    assert "show_caption_above_media" not in data
