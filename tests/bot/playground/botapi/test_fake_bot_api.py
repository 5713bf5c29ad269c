"""Self-tests of the fake Bot API, driven through a real PTB ``Bot`` (and raw httpx)."""

from __future__ import annotations

import asyncio
import datetime as dtm
import time

import httpx
import pytest
from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Update,
)
from telegram.error import (
    BadRequest,
    EndPointNotFound,
    InvalidToken,
)
from telegram.ext import Application, CommandHandler, ContextTypes

from bot.playground.botapi import BotApiServer, FakeChat, FakeUser

ALICE = FakeUser(1001, "Alice", username="alice")
BOB = FakeUser(1002, "Bob")
ALICE_CHAT = FakeChat.private(ALICE)
GROUP = FakeChat.group(-500, "Quiz night")
POLL = dtm.timedelta(seconds=0.2)


def keyboard(*data: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(d.upper(), callback_data=d) for d in data]])


async def test_get_me_describes_the_configured_bot(fake: BotApiServer, bot: Bot) -> None:
    """Bot.initialize() parses getMe into the configured bot user."""
    me = await bot.get_me()
    assert (me.id, me.username, me.is_bot) == (123456, "quizbot_test_bot", True)
    assert len(fake.calls_to("getMe")) == 2
    assert fake.calls[0].method == "getMe"
    assert fake.calls[0].ok


async def test_wrong_token_is_rejected_as_invalid_token(fake: BotApiServer) -> None:
    """A request with another token gets 401 Unauthorized (PTB: InvalidToken)."""
    with pytest.raises(InvalidToken):
        async with Bot("999:WRONG", base_url=f"{fake.url}/bot"):
            pass
    assert fake.calls == []


async def test_unknown_method_is_not_found(bot: Bot) -> None:
    """An unimplemented method is 404 'method not found' (PTB: EndPointNotFound)."""
    with pytest.raises(EndPointNotFound):
        await bot.do_api_request("noSuchMethod")


async def test_long_poll_returns_as_soon_as_a_user_writes(fake: BotApiServer, bot: Bot) -> None:
    """getUpdates waits, then answers immediately when a message arrives."""
    poll = asyncio.create_task(bot.get_updates(timeout=5))
    await fake.wait_until(lambda: bool(fake.calls_to("getUpdates")))
    started = time.monotonic()
    fake.send_message(ALICE_CHAT, ALICE, "/start@quizbot_test_bot now")
    updates = await asyncio.wait_for(poll, 1.0)
    assert time.monotonic() - started < 0.5
    (update,) = updates
    assert update.message is not None
    assert update.message.text == "/start@quizbot_test_bot now"
    assert update.message.from_user is not None
    assert update.message.from_user.id == ALICE.id
    assert update.message.entities[0].type == "bot_command"
    assert update.message.entities[0].length == len("/start@quizbot_test_bot")


async def test_long_poll_returns_nothing_after_its_timeout(bot: Bot) -> None:
    """getUpdates with no pending updates returns [] once the timeout elapses."""
    started = time.monotonic()
    assert await bot.get_updates(timeout=POLL) == ()
    assert 0.15 <= time.monotonic() - started < 0.5


async def test_offset_confirms_and_drops_earlier_updates(fake: BotApiServer, bot: Bot) -> None:
    """Updates below the offset are gone; the rest come back until confirmed."""
    fake.send_message(ALICE_CHAT, ALICE, "one")
    fake.send_message(ALICE_CHAT, ALICE, "two")
    first = await bot.get_updates()
    assert [u.message.text for u in first if u.message] == ["one", "two"]
    assert len(await bot.get_updates(offset=first[1].update_id)) == 1
    assert await bot.get_updates(offset=first[1].update_id + 1) == ()
    assert fake.pending_updates == []


async def test_send_then_edit_round_trips_and_edit_drops_keyboard(
    fake: BotApiServer, bot: Bot
) -> None:
    """sendMessage stores text + markup; editMessageText without markup removes the keyboard."""
    sent = await bot.send_message(
        ALICE_CHAT.id, "<b>Q1</b>", parse_mode="HTML", reply_markup=keyboard("a", "b")
    )
    assert sent.text == "<b>Q1</b>"
    assert sent.reply_markup == keyboard("a", "b")
    assert sent.from_user is not None
    assert sent.from_user.is_bot
    stored = fake.message(ALICE_CHAT.id, sent.message_id)
    assert stored.callback_data == ["a", "b"]
    assert stored.button("B") == "b"
    edited = await bot.edit_message_text("Q1 answered", ALICE_CHAT.id, sent.message_id)
    assert isinstance(edited, type(sent))
    assert edited.reply_markup is None
    assert (stored.text, stored.reply_markup, stored.edit_count) == ("Q1 answered", None, 1)
    assert [m.text for m in fake.bot_messages(ALICE_CHAT.id)] == ["Q1 answered"]


async def test_numeric_looking_text_stays_a_string(fake: BotApiServer, bot: Bot) -> None:
    """'text' is never JSON-decoded, even when it looks like a number."""
    sent = await bot.send_message(ALICE_CHAT.id, "42")
    assert sent.text == "42"
    assert fake.message(ALICE_CHAT.id, sent.message_id).text == "42"
    assert fake.calls_to("sendMessage")[0].params["chat_id"] == ALICE_CHAT.id


async def test_user_and_bot_messages_share_per_chat_ids(fake: BotApiServer, bot: Bot) -> None:
    """Message ids count up per chat, shared by user and bot messages."""
    assert fake.send_message(ALICE_CHAT, ALICE, "hi")["message_id"] == 1
    reply = await bot.send_message(ALICE_CHAT.id, "hello", reply_to_message_id=1)
    assert reply.message_id == 2
    assert reply.reply_to_message is not None
    assert reply.reply_to_message.text == "hi"
    assert (await bot.send_message(GROUP.id, "group")).message_id == 1
    assert [m.from_bot for m in fake.chat_messages(ALICE_CHAT.id)] == [False, True]


async def test_editing_a_missing_message_is_a_bad_request(bot: Bot) -> None:
    """Telegram's 'message to edit not found'."""
    with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
        await bot.edit_message_text("x", ALICE_CHAT.id, 99)


async def test_editing_to_identical_content_is_not_modified(bot: Bot) -> None:
    """Same text and markup -> 'message is not modified'."""
    sent = await bot.send_message(ALICE_CHAT.id, "same", reply_markup=keyboard("a"))
    with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
        await bot.edit_message_text(
            "same", ALICE_CHAT.id, sent.message_id, reply_markup=keyboard("a")
        )
    with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
        await bot.edit_message_reply_markup(
            ALICE_CHAT.id, sent.message_id, reply_markup=keyboard("a")
        )


async def test_oversized_callback_data_is_rejected(bot: Bot) -> None:
    """callback_data over 64 bytes -> BUTTON_DATA_INVALID, as Telegram does."""
    with pytest.raises(BadRequest, match=r"(?i)BUTTON_DATA_INVALID"):
        await bot.send_message(ALICE_CHAT.id, "q", reply_markup=keyboard("x" * 65))


async def test_button_press_and_answer_round_trip(fake: BotApiServer, bot: Bot) -> None:
    """A press carries the current message; the answer is recorded once, then the id is stale."""
    sent = await bot.send_message(ALICE_CHAT.id, "Q?", reply_markup=keyboard("a", "b"))
    query_id = fake.press_button(ALICE_CHAT, ALICE, sent.message_id, "b")
    (update,) = await bot.get_updates()
    query = update.callback_query
    assert query is not None
    assert (query.id, query.data) == (query_id, "b")
    assert query.message is not None
    assert query.message.message_id == sent.message_id
    assert await bot.answer_callback_query(query.id, "Correct!", show_alert=True)
    answer = await fake.callback_answer(query_id, timeout=1.0)
    assert (answer.text, answer.show_alert) == ("Correct!", True)
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):
        await bot.answer_callback_query(query.id)


async def test_press_on_unknown_message_sends_inaccessible_message(
    fake: BotApiServer, bot: Bot
) -> None:
    """Pressing (forged data) on a message that does not exist yields InaccessibleMessage."""
    fake.press_button(ALICE_CHAT, ALICE, 77, "forged:data")
    (update,) = await bot.get_updates()
    assert update.callback_query is not None
    assert update.callback_query.message is not None
    assert not update.callback_query.message.is_accessible  # PTB parses it as a Message
    assert update.callback_query.message.message_id == 77


async def test_latency_delays_every_answer() -> None:
    """latency is awaited before answering methods other than getUpdates."""
    async with BotApiServer(latency=0.1) as slow, Bot(slow.token, base_url=f"{slow.url}/bot") as b:
        started = time.monotonic()
        await b.send_message(1, "slow")
        assert time.monotonic() - started >= 0.1


async def test_wait_for_call_times_out_listing_last_calls(fake: BotApiServer, bot: Bot) -> None:
    """A failed wait raises TimeoutError naming what was sent instead."""
    await bot.send_message(ALICE_CHAT.id, "hello")
    with pytest.raises(TimeoutError, match=r"(?s)editMessageText.*sendMessage"):
        await fake.wait_for_call("editMessageText", timeout=0.1)
    call = await fake.wait_for_call("sendMessage", lambda c: c.params["text"] == "hello")
    assert call.result["text"] == "hello"


async def test_idle_waits_for_a_quiet_period(fake: BotApiServer, bot: Bot) -> None:
    """idle() returns only after requests stop for `settle` seconds."""
    sender = asyncio.create_task(bot.send_message(ALICE_CHAT.id, "late"))
    await fake.idle(settle=0.05, timeout=1.0)
    assert sender.done()
    assert fake.bot_messages(ALICE_CHAT.id)[0].text == "late"


async def test_abandoned_long_poll_is_cancelled_server_side(fake: BotApiServer, bot: Bot) -> None:
    """Cancelling a long poll closes the connection; the fake notices and drops it."""
    poll = asyncio.create_task(bot.get_updates(timeout=5))
    await fake.wait_until(lambda: bool(fake.calls_to("getUpdates")))
    poll.cancel()
    await fake.wait_until(lambda: fake.calls_to("getUpdates")[0].status == 499, timeout=1.0)


async def test_raw_http_keep_alive_get_json_and_multipart(fake: BotApiServer) -> None:
    """Raw clients: keep-alive, Connection: close, GET query, JSON and multipart bodies."""
    base = f"{fake.url}/bot{fake.token}"
    async with httpx.AsyncClient() as client:
        got = await client.get(f"{base}/getUpdates", params={"timeout": 0})
        assert got.json() == {"ok": True, "result": []}
        assert got.headers["connection"] == "keep-alive"
        sent = await client.post(f"{base}/sendMessage", json={"chat_id": 5, "text": "json"})
        assert sent.json()["result"]["text"] == "json"
        multi = await client.post(
            f"{base}/sendMessage", data={"chat_id": "5", "text": "123"}, files={"doc": b"x"}
        )
        assert multi.json()["result"]["text"] == "123"
        closing = await client.post(f"{base}/getMe", headers={"Connection": "close"})
        assert closing.headers["connection"] == "close"
        assert closing.json()["ok"]
        assert fake.connections_accepted == 1  # keep-alive until "Connection: close"
        missing = await client.post(f"{base}/noSuchMethod")
        assert missing.status_code == 404
        assert missing.json()["description"] == "Not Found: method not found"


async def test_ptb_application_polls_and_replies(fake: BotApiServer) -> None:
    """A real Application started against the fake answers /start and shuts down cleanly."""

    async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_message is not None
        await update.effective_message.reply_text("Welcome!")

    app = Application.builder().token(fake.token).base_url(f"{fake.url}/bot").build()
    app.add_handler(CommandHandler("start", start))
    async with app:
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(timeout=1)
        fake.send_message(ALICE_CHAT, ALICE, "/start")
        reply = await fake.wait_for_call("sendMessage")
        assert reply.params["text"] == "Welcome!"
        await app.updater.stop()
        await app.stop()
    assert [m.text for m in fake.chat_messages(ALICE_CHAT.id)] == ["/start", "Welcome!"]
    assert fake.pending_updates == []
    assert fake.internal_errors == []
