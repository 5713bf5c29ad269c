"""A learner alone with the bot: /start, /quiz, pressing answers, /me, restarts, forged buttons."""

from __future__ import annotations

import re

from bot.app import RunningBot
from bot.playground.botapi import BotApiServer, FakeChat, StoredMessage
from tests.e2e.conftest import ALICE, BOB, StartBot, alice_private

DECK_QUESTION_COUNT = 5


async def _quiz(fake: BotApiServer, chat: FakeChat | None = None) -> StoredMessage:
    chat = chat or alice_private()
    since = len(fake.calls)
    fake.send_message(chat, ALICE, "/quiz")
    call = await fake.wait_for_call("sendMessage", since=since)
    return fake.message(chat.id, call.result["message_id"])


def _ask_id(question: StoredMessage) -> int:
    return int(question.callback_data[0].split(":")[1])


async def _right_and_wrong(running: RunningBot, question: StoredMessage) -> tuple[str, str]:
    ask = await running.store.get_ask(_ask_id(question))
    assert ask is not None
    right = ask.right_position
    return question.callback_data[right], question.callback_data[(right + 1) % 4]


async def test_start_lists_commands_and_registers_menu(fake: BotApiServer, bot: RunningBot) -> None:
    """/start explains the bot and lists the commands, which are also set with setMyCommands."""
    registered = {c["command"] for c in fake.calls_to("setMyCommands")[0].params["commands"]}
    assert registered == {
        "quiz",
        "stop",
        "me",
        "leaderboard",
        "daily",
        "deck",
        "timezone",
        "help",
        "topics",
        "exam",
        "review",
        "forgetme",
    }
    fake.send_message(alice_private(), ALICE, "/start")
    call = await fake.wait_for_call("sendMessage")
    text = call.params["text"]
    assert "NCA Multi-GPU Computing &amp; Scaling 5" in text
    assert all(f"/{name}" in text for name in registered)


async def test_quiz_sends_lettered_options_and_one_row_of_letter_buttons(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """/quiz sends the question with every option in full and buttons A–D in one row."""
    question = await _quiz(fake)
    assert question.text is not None
    assert [len(row) for row in question.keyboard] == [4]
    assert [b["text"] for b in question.buttons] == ["A", "B", "C", "D"]
    for letter in "ABCD":
        assert re.search(rf"<b>{letter}\)</b> \S", question.text)
    assert all(len(data.encode()) <= 64 for data in question.callback_data)


async def test_right_answer_is_toasted_marked_and_explained(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """A right press: '✅ Correct' toast, keyboard removed with ✅ mark, explanation as a reply."""
    question = await _quiz(fake)
    right, _ = await _right_and_wrong(bot, question)
    since = len(fake.calls)
    query = fake.press_button(alice_private(), ALICE, question.message_id, right)
    assert (await fake.callback_answer(query)).text == "✅ Correct"
    reply = await fake.wait_for_call("sendMessage", since=since)
    edited = fake.message(ALICE.id, question.message_id)
    assert edited.reply_markup is None
    assert edited.text is not None
    assert "✅" in edited.text
    assert "your answer" in edited.text
    assert "❌" not in edited.text
    assert reply.params["text"].startswith("✅ <b>Correct!</b>")
    assert reply.params["reply_parameters"]["message_id"] == question.message_id


async def test_wrong_answer_names_the_right_letter_and_marks_both(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """A wrong press: the toast names the right letter; the right and chosen options are marked."""
    question = await _quiz(fake)
    right, wrong = await _right_and_wrong(bot, question)
    right_letter = "ABCD"[question.callback_data.index(right)]
    since = len(fake.calls)
    query = fake.press_button(alice_private(), ALICE, question.message_id, wrong)
    answer = await fake.callback_answer(query)
    assert answer.text == f"❌ Not quite — it was {right_letter}"
    assert not answer.show_alert
    reply = await fake.wait_for_call("sendMessage", since=since)
    edited = fake.message(ALICE.id, question.message_id)
    assert edited.text is not None
    assert f"✅ <b>{right_letter})</b>" in edited.text
    assert "❌" in edited.text
    assert f"The answer is <b>{right_letter})</b>" in reply.params["text"]
    assert "💡" in reply.params["text"]


async def test_second_press_says_already_answered_and_changes_nothing(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """Pressing again gets 'You already answered X' and no edit, reply or new score."""
    question = await _quiz(fake)
    right, wrong = await _right_and_wrong(bot, question)
    wrong_letter = "ABCD"[question.callback_data.index(wrong)]
    first = fake.press_button(alice_private(), ALICE, question.message_id, wrong)
    await fake.callback_answer(first)
    await fake.wait_for_call("sendMessage", count=2)
    await fake.idle()
    since = len(fake.calls)
    second = fake.press_button(alice_private(), ALICE, question.message_id, right)
    assert (await fake.callback_answer(second)).text == f"You already answered {wrong_letter}"
    await fake.idle()
    assert [c.method for c in fake.calls[since:] if c.method != "getUpdates"] == [
        "answerCallbackQuery"
    ]
    stats = await bot.store.user_stats(ALICE.id, ALICE.id)
    assert (stats.answered, stats.correct) == (1, 0)


async def test_me_reports_answered_correct_and_accuracy(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """/me counts this chat's answers: answered, correct and accuracy."""
    fake.send_message(alice_private(), ALICE, "/me")
    empty = await fake.wait_for_call("sendMessage")
    assert "haven't answered" in empty.params["text"]
    for pick_right in (True, False, True, True):
        question = await _quiz(fake)
        right, wrong = await _right_and_wrong(bot, question)
        query = fake.press_button(
            alice_private(), ALICE, question.message_id, right if pick_right else wrong
        )
        await fake.callback_answer(query)
        await fake.idle()
    since = len(fake.calls)
    fake.send_message(alice_private(), ALICE, "/me")
    call = await fake.wait_for_call("sendMessage", since=since)
    text = call.params["text"]
    assert "Answered: <b>4</b>" in text
    assert "Correct: <b>3</b>" in text
    assert "Accuracy: <b>75%</b>" in text


async def test_questions_do_not_repeat_before_the_deck_is_done(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """Five /quiz in a row show the deck's five questions, each once."""
    texts = []
    for _ in range(DECK_QUESTION_COUNT):
        question = await _quiz(fake)
        assert question.text is not None
        texts.append(question.text.split("\n\n")[1])
    assert len(set(texts)) == DECK_QUESTION_COUNT


async def test_question_asked_before_restart_is_scored_once_after_it(
    fake: BotApiServer, start_bot: StartBot
) -> None:
    """An ask stored before a restart is answerable after it, and counts once."""
    async with start_bot():
        question = await _quiz(fake)
    async with start_bot() as running:
        right, _ = await _right_and_wrong(running, question)
        letter = "ABCD"[question.callback_data.index(right)]
        first = fake.press_button(alice_private(), ALICE, question.message_id, right)
        assert (await fake.callback_answer(first)).text == "✅ Correct"
        second = fake.press_button(alice_private(), ALICE, question.message_id, right)
        assert (await fake.callback_answer(second)).text == f"You already answered {letter}"
        stats = await running.store.user_stats(ALICE.id, ALICE.id)
        assert (stats.answered, stats.correct) == (1, 1)


async def _assert_refused_and_nothing_written(
    fake: BotApiServer, running: RunningBot, query_id: str, question: StoredMessage
) -> None:
    """The press got the alert; Alice's question is still open and nobody has a score."""
    answer = await fake.callback_answer(query_id)
    assert answer.show_alert
    assert answer.text is not None
    assert "doesn't belong" in answer.text
    await running.sender.idle()
    await fake.idle()
    ask = await running.store.get_ask(_ask_id(question))
    assert ask is not None
    assert not ask.is_closed
    assert await running.store.answer_count(ask.id) == 0
    for user in (ALICE, BOB):
        stats = await running.store.user_stats(user.id, user.id)
        assert (stats.answered, stats.correct) == (0, 0)
    assert len(fake.message(ALICE.id, question.message_id).buttons) == 4


async def test_unparseable_button_data_gets_an_alert(fake: BotApiServer, bot: RunningBot) -> None:
    """Callback data that is not ours gets a polite alert and writes nothing."""
    question = await _quiz(fake)
    for data in ("garbage", "a:1:9", "a:-1:0", "a:1", "a:01:0", ""):
        query = fake.press_button(alice_private(), ALICE, question.message_id, data)
        await _assert_refused_and_nothing_written(fake, bot, query, question)


async def test_button_for_missing_ask_gets_an_alert(fake: BotApiServer, bot: RunningBot) -> None:
    """Well-formed data naming an ask that does not exist is refused."""
    question = await _quiz(fake)
    query = fake.press_button(alice_private(), ALICE, question.message_id, "a:999999:0")
    await _assert_refused_and_nothing_written(fake, bot, query, question)


async def test_button_of_another_chat_gets_an_alert(fake: BotApiServer, bot: RunningBot) -> None:
    """A press carrying another chat's ask id is refused and scores nothing for anyone."""
    question = await _quiz(fake)
    bob_chat = FakeChat.private(BOB)
    fake.send_message(bob_chat, BOB, "/start")
    await fake.idle()
    query = fake.press_button(bob_chat, BOB, 1, question.callback_data[0])
    await _assert_refused_and_nothing_written(fake, bot, query, question)
    untouched = fake.message(ALICE.id, question.message_id)
    assert len(untouched.buttons) == 4
