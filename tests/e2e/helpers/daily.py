"""Helpers shared by the daily-question end-to-end tests."""

from __future__ import annotations

from datetime import date

from bot.app import RunningBot
from bot.core.model import Push
from bot.playground.botapi import BotApiServer, FakeChat, FakeUser
from tests.e2e.helpers.group import MEMBERS

ADMIN = MEMBERS[0]
GROUP = FakeChat.supergroup(-1005550001, "Daily group")


async def say(fake: BotApiServer, user: FakeUser, text: str, chat: FakeChat = GROUP) -> str:
    """`user` writes `text` in `chat`; the bot's reply there (not a later reply elsewhere)."""
    since = len(fake.calls)
    fake.send_message(chat, user, text)
    call = await fake.wait_for_call(
        "sendMessage", lambda c: c.params.get("chat_id") == chat.id, since=since
    )
    return str(call.params["text"])


def questions(fake: BotApiServer, chat_id: int) -> list[str]:
    """The question messages the bot sent to a chat (they carry answer buttons)."""
    return [
        m.text or ""
        for m in fake.bot_messages(chat_id)
        if m.callback_data and m.callback_data[0].startswith("a:")
    ]


async def fan_out(bot: RunningBot, fake: BotApiServer) -> None:
    """Plan the slots that have come and send every pending push, then until all is quiet."""
    await bot.ticker.tick()
    await bot.sender.feed_until_quiet()
    await fake.idle()


async def push(bot: RunningBot, chat_id: int, local_day: date) -> Push:
    """The ledger row of the chat's daily question for that local day."""
    push = await bot.store.push_for(chat_id, local_day)
    assert push is not None, f"no push for chat {chat_id} on {local_day}"
    return push
