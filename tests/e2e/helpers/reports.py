"""Helpers for the learner-report end-to-end tests: a learner's way from a question to a report,
and the reports chat where the editors read them."""

from __future__ import annotations

from bot.app import RunningBot
from bot.core.model import Report
from bot.playground.botapi import BotApiServer, CallbackAnswer, FakeChat, FakeUser, StoredMessage
from tests.e2e.conftest import ALICE
from tests.e2e.helpers.group import tick

REPORTS = FakeChat.supergroup(-1009876543210, "Deck reports")
EDITOR = FakeUser(4001, "Edith", "Editor")  # an admin of the reports chat
READER = FakeUser(4002, "Rex")  # a plain member of it
REASONS = (
    "Wrong answer key",
    "More than one right answer",
    "Unclear question",
    "Typo",
    "Outdated",
    "Explanation wrong",
    "Other",
)


def private(user: FakeUser = ALICE) -> FakeChat:
    return FakeChat.private(user)


async def sent_after(fake: BotApiServer, chat: FakeChat, since: int) -> StoredMessage:
    """The first message the bot sent to `chat` among the calls after `since`."""
    call = await fake.wait_for_call(
        "sendMessage", lambda c: c.params.get("chat_id") == chat.id, since=since
    )
    return fake.message(chat.id, call.result["message_id"])


async def say(fake: BotApiServer, text: str, user: FakeUser = ALICE) -> StoredMessage:
    """`user` writes `text` in private; the bot's reply."""
    since = len(fake.calls)
    fake.send_message(private(user), user, text)
    return await sent_after(fake, private(user), since)


async def press(
    fake: BotApiServer, chat: FakeChat, user: FakeUser, message: StoredMessage | int, data: str
) -> CallbackAnswer:
    """`user` presses a button with `data` on `message`; the bot's answer to the press."""
    message_id = message if isinstance(message, int) else message.message_id
    answer = await fake.callback_answer(fake.press_button(chat, user, message_id, data))
    await fake.idle()
    return answer


async def explained_question(
    fake: BotApiServer, bot: RunningBot, user: FakeUser = ALICE, *, right: bool = False
) -> tuple[StoredMessage, StoredMessage]:
    """`/quiz` in private, answered (wrongly unless `right`): the question and the explanation."""
    question = await say(fake, "/quiz", user)
    ask = await bot.store.get_ask(int(question.callback_data[0].split(":")[1]))
    assert ask is not None
    position = ask.right_position if right else (ask.right_position + 1) % len(ask.option_order)
    since = len(fake.calls)
    await press(fake, private(user), user, question, question.callback_data[position])
    explanation = await sent_after(fake, private(user), since)
    await fake.idle()
    return question, fake.message(user.id, explanation.message_id)


async def open_picker(
    fake: BotApiServer, explanation: StoredMessage, user: FakeUser = ALICE
) -> StoredMessage:
    """`⚑ Report` under an explanation: the reason picker the bot sends."""
    since = len(fake.calls)
    answer = await press(fake, private(user), user, explanation, explanation.button("⚑ Report"))
    assert not answer.show_alert, answer.text
    return await sent_after(fake, private(user), since)


async def pick(
    fake: BotApiServer, picker: StoredMessage, reason: str, user: FakeUser = ALICE
) -> CallbackAnswer:
    """Pick `reason` on the picker (which the bot then edits into the comment prompt)."""
    return await press(fake, private(user), user, picker, picker.button(reason))


async def settle(fake: BotApiServer, bot: RunningBot) -> None:
    """Until everything owed now is sent."""
    await bot.sender.idle()
    await fake.idle()
    await tick(fake, bot)


async def stored(bot: RunningBot) -> list[Report]:
    return await bot.store.reports(open_only=False, deck_id=None, limit=100)


def report_posts(fake: BotApiServer) -> list[StoredMessage]:
    return [m for m in fake.bot_messages(REPORTS.id) if (m.text or "").startswith("⚑")]
