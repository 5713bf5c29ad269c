"""A long-running server forgets old records (calls, updates, answers, old messages) but never a
message the bot may still edit."""

from __future__ import annotations

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup

from bot.playground.botapi import BotApiServer, FakeChat, FakeUser

ALICE = FakeUser(1, "Alice")
CHAT = FakeChat.private(ALICE)


async def test_forget_old_keeps_the_newest_and_every_message_with_buttons(
    fake: BotApiServer, bot: Bot
) -> None:
    """After 30 messages, keeping 10 leaves the 10 newest plus the old question with buttons."""
    fake.send_message(CHAT, ALICE, "/start")
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("A", callback_data="a:1:0")]])
    question = await bot.send_message(CHAT.id, "Which?", reply_markup=keyboard)
    for i in range(30):
        await bot.send_message(CHAT.id, f"note {i}")
    calls_before = len(fake.calls)
    fake.forget_old(10)
    kept = [m.text for m in fake.chat_messages(CHAT.id)]
    assert kept == ["Which?", *[f"note {i}" for i in range(20, 30)]]
    assert fake.find_message(CHAT.id, question.message_id) is not None
    assert len(fake.calls) == 10 < calls_before
    await bot.edit_message_text("Which? (closed)", CHAT.id, question.message_id)
    assert fake.message(CHAT.id, question.message_id).text == "Which? (closed)"


async def test_old_messages_with_buttons_are_kept_only_up_to_as_many_again(
    fake: BotApiServer, bot: Bot
) -> None:
    """Keeping 2: the 2 newest messages, and of the older ones the 2 newest with buttons."""
    fake.send_message(CHAT, ALICE, "/start")
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("A", callback_data="a:1:0")]])
    for i in range(4):
        await bot.send_message(CHAT.id, f"question {i}", reply_markup=keyboard)
    for i in range(3):
        await bot.send_message(CHAT.id, f"note {i}")
    fake.forget_old(2)
    kept = [m.text for m in fake.chat_messages(CHAT.id)]
    assert kept == ["question 2", "question 3", "note 1", "note 2"]
