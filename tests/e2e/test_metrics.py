"""/metrics after real traffic: the bot against the fake Bot API, read through render_latest().

The registry is process-wide, so each test compares the exported figures before and after.
"""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families

from bot.app import RunningBot
from bot.metrics import render_latest
from bot.playground.botapi import BotApiServer
from bot.playground.botapi.faults import too_many_requests
from tests.e2e.conftest import ALICE, alice_private
from tests.e2e.helpers.faults import has_buttons

Figures = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def _figures() -> Figures:
    """Every sample of GET /metrics' body, by name and labels."""
    body, _ = render_latest()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(body.decode())
        for sample in family.samples
    }


def _grew(before: Figures, after: Figures, name: str, **labels: str) -> float:
    key = (name, tuple(sorted(labels.items())))
    return after.get(key, 0.0) - before.get(key, 0.0)


async def test_a_private_answer_shows_as_updates_an_answer_and_sends(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """/quiz and a press count one message and one button update, one private answer, and the
    sendMessage, editMessageText and answerCallbackQuery calls that succeeded."""
    before = _figures()
    chat = alice_private()
    fake.send_message(chat, ALICE, "/quiz")
    posted = await fake.wait_for_call("sendMessage", lambda c: has_buttons(c.params))
    question = fake.message(chat.id, posted.result["message_id"])
    since = len(fake.calls)
    query = fake.press_button(chat, ALICE, question.message_id, question.callback_data[0])
    await fake.callback_answer(query)
    await fake.wait_for_call("sendMessage", since=since)  # the explanation
    await fake.wait_for_call("editMessageText", since=since)  # the question, marked
    await bot.sender.idle()
    methods = ("sendMessage", "editMessageText", "answerCallbackQuery")

    def sent() -> dict[str, float]:
        after = _figures()
        return {m: _grew(before, after, "quizbot_messages_sent_total", method=m) for m in methods}

    def answered() -> dict[str, float]:
        """What the fake answered with 200, which the bot counts once it has read the reply."""
        return {m: float(len([c for c in fake.calls_to(m) if c.ok])) for m in methods}

    await fake.wait_until(lambda: sent() == answered(), what="every success to be counted")
    after = _figures()
    assert _grew(before, after, "quizbot_updates_handled_total", kind="message") == 1
    assert _grew(before, after, "quizbot_updates_handled_total", kind="callback_query") == 1
    assert _grew(before, after, "quizbot_answers_recorded_total", chat_type="private") == 1
    assert _grew(before, after, "quizbot_answers_recorded_total", chat_type="group") == 0
    assert sent()["sendMessage"] >= 2  # the question and the explanation
    assert sent()["editMessageText"] >= 1
    assert sent()["answerCallbackQuery"] == 1


async def test_a_429_from_telegram_is_counted_under_its_method(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """A sendMessage refused with 429 Too Many Requests shows in quizbot_telegram_429_total."""
    before = _figures()
    refused = fake.inject("sendMessage", too_many_requests(1))
    fake.send_message(alice_private(), ALICE, "/quiz")
    await fake.wait_until(lambda: bool(refused.hits), what="the 429 to be answered")
    await fake.wait_until(
        lambda: _grew(before, _figures(), "quizbot_telegram_429_total", method="sendMessage") == 1,
        what="the 429 to be counted",
    )
    after = _figures()
    assert _grew(before, after, "quizbot_telegram_429_total", method="sendMessage") == 1
    assert refused.hits[0].status == 429
