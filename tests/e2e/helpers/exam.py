"""Scripting a learner through a mock exam against the fake Bot API."""

from __future__ import annotations

from bot.app import RunningBot
from bot.core.model import ExamItem
from bot.playground.botapi import (
    ApiCall,
    BotApiServer,
    CallbackAnswer,
    FakeChat,
    FakeUser,
    StoredMessage,
)
from tests.e2e.conftest import ALICE

# The e2e deck's five questions; 30 minutes for 20 at the same pace is 7.5, rounded up to 8.
EXAM_SIZE = 5
EXAM_MINUTES = 8
RESULT = "📝 <b>Practice exam result</b>"


def chat_of(user: FakeUser) -> FakeChat:
    return FakeChat.private(user)


async def say(fake: BotApiServer, text: str, user: FakeUser = ALICE) -> ApiCall:
    """`user` writes `text` in their private chat; the bot's first message after it."""
    since = len(fake.calls)
    fake.send_message(chat_of(user), user, text)
    return await fake.wait_for_call("sendMessage", since=since)


async def start_exam(fake: BotApiServer, text: str = "/exam") -> StoredMessage:
    call = await say(fake, text)
    return fake.message(ALICE.id, call.result["message_id"])


def exam_id_of(message: StoredMessage) -> int:
    return int(message.callback_data[0].split(":")[1])


async def items_of(bot: RunningBot, message: StoredMessage) -> list[ExamItem]:
    return await bot.store.exam_items(exam_id_of(message))


async def press(
    fake: BotApiServer, message_id: int, data: str, user: FakeUser = ALICE
) -> CallbackAnswer:
    query = fake.press_button(chat_of(user), user, message_id, data)
    return await fake.callback_answer(query)


async def press_and_show(fake: BotApiServer, message: StoredMessage, label: str) -> StoredMessage:
    """Press the button labelled `label` and wait until the message is edited."""
    since = len(fake.calls)
    answer = await press(fake, message.message_id, message.button(label))
    assert not answer.show_alert, answer.text
    await fake.wait_for_call("editMessageText", since=since)
    return fake.message(message.chat_id, message.message_id)


def letters(message: StoredMessage) -> list[str]:
    return [button["text"] for button in message.keyboard[0]]


async def result_after(fake: BotApiServer, since: int) -> StoredMessage:
    """The result message sent (successfully) after `calls[since]`."""
    call = await fake.wait_for_call(
        "sendMessage", lambda c: c.ok and str(c.params["text"]).startswith(RESULT), since=since
    )
    return fake.message(int(call.params["chat_id"]), call.result["message_id"])
