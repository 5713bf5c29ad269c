"""Helpers for group end-to-end tests."""

from __future__ import annotations

from bot.app import RunningBot
from bot.playground.botapi import BotApiServer, FakeChat, FakeUser, StoredMessage
from tests.fakes.clock import FakeClock

GROUP = FakeChat.supergroup(-1001234567890, "NCA study group", forum=True)
TOPIC = 77
OTHER_TOPIC = 78  # a second forum topic: one open /quiz question per topic
OPEN_SECONDS = 300  # the default QUIZBOT_QUIZ_OPEN_SECONDS
MEMBERS = [FakeUser(2000 + i, f"Member{i}", username=f"member{i}") for i in range(60)]


async def group_quiz(
    fake: BotApiServer,
    user: FakeUser = MEMBERS[0],
    *,
    text: str = "/quiz",
    thread: int | None = TOPIC,
) -> StoredMessage:
    since = len(fake.calls)
    fake.send_message(GROUP, user, text, thread_id=thread)
    call = await fake.wait_for_call("sendMessage", since=since)
    await fake.idle()  # the bot has the post on record: the question's time runs from it
    return fake.message(GROUP.id, call.result["message_id"])


def ask_id_of(question: StoredMessage) -> int:
    """The ask a question message's answer buttons name (callback data ``a:<ask>:<pos>``)."""
    return int(question.callback_data[0].split(":")[1])


async def tick(fake: BotApiServer, running: RunningBot) -> None:
    """One ticker pass (close what is due, start the senders), then until all it owed is sent."""
    await running.ticker.tick()
    await running.sender.feed_until_quiet()
    await fake.idle()


async def close_open_questions(fake: BotApiServer, running: RunningBot, clock: FakeClock) -> None:
    """Let every open group question pass its deadline and be revealed."""
    clock.advance(seconds=OPEN_SECONDS + 1)
    await tick(fake, running)


async def right_and_wrong(running: RunningBot, question: StoredMessage) -> tuple[str, str, str]:
    """The right button's data, a wrong one's, and the right letter."""
    ask = await running.store.get_ask(ask_id_of(question))
    assert ask is not None
    right = ask.right_position
    data = list(question.callback_data)
    return data[right], data[(right + 1) % len(data)], "ABCD"[right]


async def press_all(
    fake: BotApiServer, question: StoredMessage, presses: list[tuple[FakeUser, str]]
) -> list[str]:
    """Every member presses at once; returns the alert texts in order."""
    ids = [fake.press_button(GROUP, user, question.message_id, data) for user, data in presses]
    answers = [await fake.callback_answer(query) for query in ids]
    return [a.text or "" for a in answers]
