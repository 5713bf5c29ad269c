"""Reporting a group question: a link under the closed question opens the private chat."""

from __future__ import annotations

import pytest

from bot.app import RunningBot
from bot.config import Settings
from bot.core.model import ReportReason
from bot.playground.botapi import BotApiServer
from tests.e2e.helpers.group import (
    GROUP,
    MEMBERS,
    ask_id_of,
    close_open_questions,
    group_quiz,
    press_all,
    right_and_wrong,
)
from tests.e2e.helpers.reports import REPORTS, pick, report_posts, say, settle, stored
from tests.fakes.clock import FakeClock


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.model_copy(update={"reports_chat": REPORTS.id})


async def test_closed_group_question_links_to_a_private_report(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """The open question has only A–D; once closed, `⚑ Report a problem` deep-links to a
    private report that records the member's own answer."""
    question = await group_quiz(fake)
    ask_id = ask_id_of(question)
    assert [b["text"] for b in question.buttons] == ["A", "B", "C", "D"]
    _, wrong, _ = await right_and_wrong(bot, question)
    chosen = question.callback_data.index(wrong)
    alerts = await press_all(fake, question, [(MEMBERS[1], wrong)])
    assert "Report" not in alerts[0]
    await close_open_questions(fake, bot, clock)
    closed = fake.message(GROUP.id, question.message_id)
    (button,) = closed.buttons
    assert button == {
        "text": "⚑ Report a problem",
        "url": f"https://t.me/quizbot_test_bot?start=report-{ask_id}",
    }
    member = MEMBERS[1]
    picker = await say(fake, f"/start report-{ask_id}", member)
    assert "What's wrong with it?" in (picker.text or "")
    await pick(fake, picker, "More than one right answer", member)
    await pick(fake, fake.message(member.id, picker.message_id), "Send without comment", member)
    await settle(fake, bot)
    (report,) = await stored(bot)
    ask = await bot.store.get_ask(ask_id)
    assert ask is not None
    assert (report.user_id, report.ask_id, report.chosen) == (member.id, ask_id, chosen)
    assert report.reason is ReportReason.SEVERAL_RIGHT
    assert report.option_order == ask.option_order
    (post,) = report_posts(fake)
    assert "learner's choice" in (post.text or "")
    assert all("⚑ Report #" not in (m.text or "") for m in fake.bot_messages(GROUP.id))


async def test_a_member_who_did_not_answer_may_report_too(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """A member who only read the question reports it; the report says they had not answered."""
    ask_id = ask_id_of(await group_quiz(fake))
    await close_open_questions(fake, bot, clock)
    reader = MEMBERS[7]
    picker = await say(fake, f"/start report-{ask_id}", reader)
    await pick(fake, picker, "Unclear question", reader)
    await say(fake, "The stem mixes up two terms.", reader)
    await settle(fake, bot)
    (report,) = await stored(bot)
    assert report.chosen is None
    assert report.comment == "The stem mixes up two terms."
    (post,) = report_posts(fake)
    assert "The learner had not answered it." in (post.text or "")
    assert "learner's choice" not in (post.text or "")
