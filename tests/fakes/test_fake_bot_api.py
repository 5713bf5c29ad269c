"""Self-tests of the fake Bot API, driven through a real PTB ``Bot`` (and raw httpx)."""

from __future__ import annotations

import asyncio
import datetime as dtm
import time
from collections.abc import AsyncIterator

import httpx
import pytest
from telegram import (
    Bot,
    ChatMemberAdministrator,
    ChatMemberMember,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Update,
)
from telegram.error import (
    BadRequest,
    ChatMigrated,
    EndPointNotFound,
    Forbidden,
    InvalidToken,
    RetryAfter,
)
from telegram.ext import Application, CommandHandler, ContextTypes

from tests.fakes import FakeBotApi, FakeChat, FakeUser, RateLimits

ALICE = FakeUser(1001, "Alice", username="alice")
BOB = FakeUser(1002, "Bob")
ALICE_CHAT = FakeChat.private(ALICE)
GROUP = FakeChat.group(-500, "Quiz night")
POLL = dtm.timedelta(seconds=0.2)


def keyboard(*data: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(d.upper(), callback_data=d) for d in data]])


@pytest.fixture
async def fake() -> AsyncIterator[FakeBotApi]:
    async with FakeBotApi() as api:
        yield api


@pytest.fixture
async def bot(fake: FakeBotApi) -> AsyncIterator[Bot]:
    async with Bot(fake.token, base_url=f"{fake.url}/bot") as ptb_bot:
        yield ptb_bot


async def test_get_me_describes_the_configured_bot(fake: FakeBotApi, bot: Bot) -> None:
    """Bot.initialize() parses getMe into the configured bot user."""
    me = await bot.get_me()
    assert (me.id, me.username, me.is_bot) == (123456, "quizbot_test_bot", True)
    assert len(fake.calls_to("getMe")) == 2
    assert fake.calls[0].method == "getMe"
    assert fake.calls[0].ok


async def test_wrong_token_is_rejected_as_invalid_token(fake: FakeBotApi) -> None:
    """A request with another token gets 401 Unauthorized (PTB: InvalidToken)."""
    with pytest.raises(InvalidToken):
        async with Bot("999:WRONG", base_url=f"{fake.url}/bot"):
            pass
    assert fake.calls == []


async def test_unknown_method_is_not_found(bot: Bot) -> None:
    """An unimplemented method is 404 'method not found' (PTB: EndPointNotFound)."""
    with pytest.raises(EndPointNotFound):
        await bot.do_api_request("noSuchMethod")


async def test_long_poll_returns_as_soon_as_a_user_writes(fake: FakeBotApi, bot: Bot) -> None:
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


async def test_offset_confirms_and_drops_earlier_updates(fake: FakeBotApi, bot: Bot) -> None:
    """Updates below the offset are gone; the rest come back until confirmed."""
    fake.send_message(ALICE_CHAT, ALICE, "one")
    fake.send_message(ALICE_CHAT, ALICE, "two")
    first = await bot.get_updates()
    assert [u.message.text for u in first if u.message] == ["one", "two"]
    assert len(await bot.get_updates(offset=first[1].update_id)) == 1
    assert await bot.get_updates(offset=first[1].update_id + 1) == ()
    assert fake.pending_updates == []


async def test_send_then_edit_round_trips_and_edit_drops_keyboard(
    fake: FakeBotApi, bot: Bot
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


async def test_numeric_looking_text_stays_a_string(fake: FakeBotApi, bot: Bot) -> None:
    """'text' is never JSON-decoded, even when it looks like a number."""
    sent = await bot.send_message(ALICE_CHAT.id, "42")
    assert sent.text == "42"
    assert fake.message(ALICE_CHAT.id, sent.message_id).text == "42"
    assert fake.calls_to("sendMessage")[0].params["chat_id"] == ALICE_CHAT.id


async def test_user_and_bot_messages_share_per_chat_ids(fake: FakeBotApi, bot: Bot) -> None:
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


async def test_button_press_and_answer_round_trip(fake: FakeBotApi, bot: Bot) -> None:
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
    fake: FakeBotApi, bot: Bot
) -> None:
    """Pressing (forged data) on a message that does not exist yields InaccessibleMessage."""
    fake.press_button(ALICE_CHAT, ALICE, 77, "forged:data")
    (update,) = await bot.get_updates()
    assert update.callback_query is not None
    assert update.callback_query.message is not None
    assert not update.callback_query.message.is_accessible  # PTB parses it as a Message
    assert update.callback_query.message.message_id == 77


async def test_sends_after_kick_or_block_are_forbidden(fake: FakeBotApi, bot: Bot) -> None:
    """kick_bot / block_bot make later sends fail with Telegram's 403 texts."""
    fake.kick_bot(GROUP.id)
    fake.block_bot(ALICE_CHAT.id)
    with pytest.raises(Forbidden, match="bot was kicked from the group chat"):
        await bot.send_message(GROUP.id, "hi")
    with pytest.raises(Forbidden, match="bot was blocked by the user"):
        await bot.send_message(ALICE_CHAT.id, "hi")
    fake.restore_bot(ALICE_CHAT.id)
    assert (await bot.send_message(ALICE_CHAT.id, "back")).text == "back"


async def test_my_chat_member_update_parses_and_blocks(fake: FakeBotApi, bot: Bot) -> None:
    """member_update for the bot yields my_chat_member and applies the block."""
    fake.member_update(ALICE_CHAT, ALICE, old_status="member", new_status="kicked")
    fake.add_member_update(GROUP, BOB)
    updates = await bot.get_updates()
    kicked, added = (u.my_chat_member for u in updates)
    assert kicked is not None
    assert kicked.new_chat_member.status == "kicked"
    assert added is not None
    assert added.new_chat_member.user.id == fake.bot_user.id
    with pytest.raises(Forbidden):
        await bot.send_message(ALICE_CHAT.id, "hi")


async def test_send_to_migrated_group_raises_chat_migrated(fake: FakeBotApi, bot: Bot) -> None:
    """migrate_chat makes sends answer 400 with parameters.migrate_to_chat_id."""
    fake.migrate_chat(GROUP.id, -1001234567890, notify=True)
    with pytest.raises(ChatMigrated) as info:
        await bot.send_message(GROUP.id, "hi")
    assert info.value.new_chat_id == -1001234567890
    updates = await bot.get_updates()
    assert next(u.message.migrate_to_chat_id for u in updates if u.message) == -1001234567890


async def test_rate_limit_rejects_with_retry_after(
    fake: FakeBotApi, bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With limits on, a second message within a second to one private chat gets 429."""
    monkeypatch.setenv("PTB_TIMEDELTA", "1")  # else RetryAfter() itself warns (PTB 22.2+)
    now = [100.0]
    fake.limits = RateLimits(clock=lambda: now[0])
    await bot.send_message(ALICE_CHAT.id, "1")
    with pytest.raises(RetryAfter) as info:
        await bot.send_message(ALICE_CHAT.id, "2")
    assert info.value.retry_after == dtm.timedelta(seconds=1)
    assert fake.rejected_429 == 1
    assert fake.calls_to("sendMessage")[-1].status == 429
    await bot.answer_callback_query(fake.press_button(ALICE_CHAT, ALICE, 1, "x"))  # not limited
    now[0] += 1.0
    assert (await bot.send_message(ALICE_CHAT.id, "3")).text == "3"


async def test_group_and_overall_limits_scale_with_factor(
    fake: FakeBotApi, bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """factor=0.1 stretches the windows tenfold: 3 per 10 s overall, 2 per 600 s per group."""
    monkeypatch.setenv("PTB_TIMEDELTA", "1")
    now = [0.0]
    fake.limits = RateLimits(
        clock=lambda: now[0], factor=0.1, overall_per_second=3, group_per_minute=2
    )
    for chat_id in (1, 2, 3):
        await bot.send_message(chat_id, "x")
    with pytest.raises(RetryAfter) as overall:
        await bot.send_message(4, "x")
    assert overall.value.retry_after == dtm.timedelta(seconds=10)
    now[0] += 10.0
    await bot.send_message(GROUP.id, "g1")
    await bot.send_message(GROUP.id, "g2")
    with pytest.raises(RetryAfter) as group:
        await bot.send_message(GROUP.id, "g3")
    assert group.value.retry_after == dtm.timedelta(seconds=600)
    assert fake.rejected_429 == 2


async def test_commands_are_stored_and_returned(fake: FakeBotApi, bot: Bot) -> None:
    """setMyCommands is stored per scope; getMyCommands returns it."""
    assert await bot.set_my_commands([("start", "Start a quiz"), ("top", "Leaderboard")])
    assert [c["command"] for c in fake.commands] == ["start", "top"]
    assert [c.command for c in await bot.get_my_commands()] == ["start", "top"]
    with pytest.raises(BadRequest, match=r"(?i)BOT_COMMAND_INVALID"):
        await bot.set_my_commands([("Start", "uppercase is invalid")])


async def test_chat_members_follow_configured_admins(fake: FakeBotApi, bot: Bot) -> None:
    """set_admins drives getChatMember / getChatAdministrators; getChat parses."""
    fake.send_message(GROUP, BOB, "hi")
    fake.set_admins(GROUP.id, [ALICE.id], owner_id=BOB.id)
    assert isinstance(await bot.get_chat_member(GROUP.id, ALICE.id), ChatMemberAdministrator)
    assert isinstance(await bot.get_chat_member(GROUP.id, 4242), ChatMemberMember)
    admins = await bot.get_chat_administrators(GROUP.id)
    assert [(a.user.id, a.status) for a in admins] == [
        (BOB.id, "creator"),
        (ALICE.id, "administrator"),
    ]
    chat = await bot.get_chat(GROUP.id)
    assert (chat.id, chat.type, chat.title) == (GROUP.id, "group", "Quiz night")


async def test_forum_thread_messages_are_topic_messages(fake: FakeBotApi, bot: Bot) -> None:
    """message_thread_id is echoed with is_topic_message, for users and the bot."""
    forum = FakeChat.supergroup(-1009, "Forum", forum=True)
    fake.send_message(forum, ALICE, "in topic", thread_id=5)
    sent = await bot.send_message(forum.id, "reply", message_thread_id=5)
    assert (sent.message_thread_id, sent.is_topic_message) == (5, True)
    (update,) = await bot.get_updates()
    assert update.message is not None
    assert update.message.is_topic_message


async def test_latency_delays_every_answer() -> None:
    """latency is awaited before answering methods other than getUpdates."""
    async with FakeBotApi(latency=0.1) as slow, Bot(slow.token, base_url=f"{slow.url}/bot") as b:
        started = time.monotonic()
        await b.send_message(1, "slow")
        assert time.monotonic() - started >= 0.1


async def test_wait_for_call_times_out_listing_last_calls(fake: FakeBotApi, bot: Bot) -> None:
    """A failed wait raises TimeoutError naming what was sent instead."""
    await bot.send_message(ALICE_CHAT.id, "hello")
    with pytest.raises(TimeoutError, match=r"(?s)editMessageText.*sendMessage"):
        await fake.wait_for_call("editMessageText", timeout=0.1)
    call = await fake.wait_for_call("sendMessage", lambda c: c.params["text"] == "hello")
    assert call.result["text"] == "hello"


async def test_idle_waits_for_a_quiet_period(fake: FakeBotApi, bot: Bot) -> None:
    """idle() returns only after requests stop for `settle` seconds."""
    sender = asyncio.create_task(bot.send_message(ALICE_CHAT.id, "late"))
    await fake.idle(settle=0.05, timeout=1.0)
    assert sender.done()
    assert fake.bot_messages(ALICE_CHAT.id)[0].text == "late"


async def test_abandoned_long_poll_is_cancelled_server_side(fake: FakeBotApi, bot: Bot) -> None:
    """Cancelling a long poll closes the connection; the fake notices and drops it."""
    poll = asyncio.create_task(bot.get_updates(timeout=5))
    await fake.wait_until(lambda: bool(fake.calls_to("getUpdates")))
    poll.cancel()
    await fake.wait_until(lambda: fake.calls_to("getUpdates")[0].status == 499, timeout=1.0)


async def test_raw_http_keep_alive_get_json_and_multipart(fake: FakeBotApi) -> None:
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


async def test_ptb_application_polls_and_replies(fake: FakeBotApi) -> None:
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
        await fake.idle()
        assert fake.calls_to("sendMessage")[0].params["text"] == "Welcome!"
        await app.updater.stop()
        await app.stop()
    assert [m.text for m in fake.chat_messages(ALICE_CHAT.id)] == ["/start", "Welcome!"]
    assert fake.pending_updates == []
    assert fake.internal_errors == []
