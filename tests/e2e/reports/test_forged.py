"""Forged, stale and someone else's report buttons and links: a clear message, nothing written."""

from __future__ import annotations

import pytest

from bot.app import RunningBot
from bot.config import Settings
from bot.core.model import ReportStatus
from bot.playground.botapi import BotApiServer
from tests.e2e.conftest import ALICE, BOB
from tests.e2e.helpers.group import GROUP, MEMBERS, group_quiz
from tests.e2e.helpers.reports import (
    REPORTS,
    explained_question,
    open_picker,
    pick,
    press,
    private,
    report_posts,
    say,
    settle,
    stored,
)

NOT_VALID = "Sorry, this report button isn't valid here. Send /quiz for a question."


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.model_copy(update={"reports_chat": REPORTS.id})


async def test_forged_report_buttons_are_refused_and_write_nothing(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """Malformed data, unknown asks, reasons and reports, and other chats' asks are refused."""
    _, explanation = await explained_question(fake, bot)
    mine = int(explanation.button("⚑ Report").split(":")[1])
    _, bobs = await explained_question(fake, bot, BOB)
    bobs_ask = int(bobs.button("⚑ Report").split(":")[1])
    forged = (
        "r:",
        "r:0",
        "r:01",
        "r:١٢",
        f"r:{mine}:1",
        "r:999999",
        f"r:{bobs_ask}",  # Bob's question, pressed in Alice's chat
        f"rp:{mine}:z",
        f"rp:{mine}:",
        f"rp:{bobs_ask}:k",
        "rs:999999",
        "rf:x",
        "rq:1",
    )
    for data in forged:
        answer = await press(fake, private(), ALICE, explanation, data)
        assert answer.show_alert, data
        assert answer.text == NOT_VALID, data
    assert await stored(bot) == []
    assert fake.bot_messages(REPORTS.id) == []


async def test_someone_elses_skip_button_and_a_stale_one_change_nothing(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """Bob cannot file Alice's report; once filed, `Send without comment` says it is done."""
    _, explanation = await explained_question(fake, bot)
    picker = await open_picker(fake, explanation)
    await pick(fake, picker, "Other")
    skip = fake.message(ALICE.id, picker.message_id).button("Send without comment")
    await say(fake, "/start", BOB)
    bobs = await press(fake, private(BOB), BOB, 1, skip)
    assert (bobs.show_alert, bobs.text) == (True, NOT_VALID)
    (report,) = await stored(bot)
    assert report.comment_until is not None, "still waiting for Alice's comment"
    await say(fake, "my comment")
    stale = await press(fake, private(), ALICE, picker, skip)
    assert stale.text == "This report is already filed."
    await settle(fake, bot)
    (report,) = await stored(bot)
    assert report.comment == "my comment"
    assert len(report_posts(fake)) == 1


async def test_report_buttons_in_a_group_and_resolve_buttons_elsewhere_are_refused(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """A report button pressed in a group, or `Fixed` outside the reports chat, does nothing."""
    question = await group_quiz(fake)
    ask_id = int(question.callback_data[0].split(":")[1])
    for data in (f"r:{ask_id}", f"rp:{ask_id}:k"):
        answer = await press(fake, GROUP, MEMBERS[0], question, data)
        assert (answer.show_alert, answer.text) == (True, NOT_VALID)
    _, explanation = await explained_question(fake, bot)
    await pick(fake, await open_picker(fake, explanation), "Typo")
    (report,) = await stored(bot)
    fake.set_admins(GROUP.id, [MEMBERS[0].id])
    for chat, user in ((GROUP, MEMBERS[0]), (private(), ALICE)):
        answer = await press(fake, chat, user, 1, f"rf:{report.id}")
        assert (answer.show_alert, answer.text) == (True, "Sorry, this button isn't valid here.")
    (report,) = await stored(bot)
    assert report.status is ReportStatus.OPEN


async def test_bad_report_links_get_a_clear_reply_or_the_greeting(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """`/start` with an unknown or another learner's ask says the link is not valid; other
    payloads get the usual greeting."""
    _, bobs = await explained_question(fake, bot, BOB)
    bobs_ask = int(bobs.button("⚑ Report").split(":")[1])
    for payload in ("report-999999", f"report-{bobs_ask}"):
        reply = await say(fake, f"/start {payload}")
        assert reply.text == "Sorry, that report link isn't valid. Send /quiz for a question."
    for payload in ("report-0", "report-x", "hello", f"report-{bobs_ask} extra"):
        greeting = (await say(fake, f"/start {payload}")).text or ""
        assert "/quiz" in greeting, payload
        assert "isn't valid" not in greeting, payload
    assert await stored(bot) == []
