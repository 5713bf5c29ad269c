"""A learner reports a question from its private explanation: reason, comment, skip, limits."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.app import RunningBot
from bot.config import Settings
from bot.core.model import NewReport, ReportReason, ReportStatus
from bot.playground.botapi import BotApiServer
from bot.render.commands import NOT_A_COMMAND
from content.loader import load_decks
from tests.e2e.conftest import ALICE
from tests.e2e.helpers.reports import (
    REASONS,
    REPORTS,
    explained_question,
    open_picker,
    pick,
    private,
    report_posts,
    say,
    settle,
    stored,
)
from tests.fakes.clock import FakeClock


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.model_copy(update={"reports_chat": REPORTS.id})


async def test_report_with_reason_and_comment_reaches_the_reports_chat(
    fake: BotApiServer, bot: RunningBot, settings: Settings
) -> None:
    """⚑ Report → a reason → a comment: stored with what was shown, posted to the reports chat."""
    _, explanation = await explained_question(fake, bot)
    assert [b["text"] for b in explanation.buttons] == ["⚑ Report"]
    picker = await open_picker(fake, explanation)
    assert [b["text"] for b in picker.buttons] == list(REASONS)
    assert picker.reply_to == explanation.message_id
    assert (await pick(fake, picker, "Wrong answer key")).text == "⚑ Report saved"
    prompt = fake.message(ALICE.id, picker.message_id)
    assert "within 10 minutes" in (prompt.text or "")
    assert [b["text"] for b in prompt.buttons] == ["Send without comment"]
    assert not report_posts(fake), "the report waits for its comment"
    reply = await say(fake, "I think <b>B</b> & C are both right\n\nsee the spec")
    assert reply.text == "✅ Thanks — your comment is added to the report."
    await settle(fake, bot)
    assert fake.message(ALICE.id, picker.message_id).buttons == []
    (report,) = await stored(bot)
    ask = await bot.store.get_ask(report.ask_id)
    assert ask is not None
    assert explanation.button("⚑ Report") == f"r:{ask.id}"
    answer = await bot.store.get_answer(ask.id, ALICE.id)
    assert answer is not None
    deck = load_decks(settings.content_dir)[ask.deck_id]
    shown = next(q for q in deck.questions if q.id == ask.question_id)
    assert (report.user_id, report.ask_id, report.deck_id) == (ALICE.id, ask.id, ask.deck_id)
    assert report.question_id == ask.question_id
    assert report.question_hash == shown.content_hash == ask.question_hash
    assert report.option_order == ask.option_order
    assert report.chosen == answer.position
    assert report.reason is ReportReason.WRONG_KEY
    assert report.comment == "I think <b>B</b> & C are both right\n\nsee the spec"
    assert report.status is ReportStatus.OPEN
    (post,) = report_posts(fake)
    text = post.text or ""
    assert f"<code>{ask.deck_id}</code>" in text
    assert f"<code>{ask.question_id}</code>" in text
    assert f"version <code>{shown.content_hash}</code>" in text
    assert "Wrong answer key" in text
    assert "💬 I think &lt;b&gt;B&lt;/b&gt; &amp; C are both right\n\nsee the spec" in text
    chosen_line = next(line for line in text.splitlines() if "learner's choice" in line)
    assert chosen_line.startswith(f"<b>{'ABCDEFGH'[answer.position]})</b>")
    assert [b["text"] for b in post.buttons] == ["✅ Fixed", "🗑 Dismiss"]
    assert all(len(data.encode()) <= 64 for data in post.callback_data + prompt.callback_data)


async def test_send_without_comment_files_the_report_at_once(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """`Send without comment` posts the report now; later text is no comment but gets the hint."""
    _, explanation = await explained_question(fake, bot, right=True)
    picker = await open_picker(fake, explanation)
    await pick(fake, picker, "Typo")
    prompt = fake.message(ALICE.id, picker.message_id)
    await pick(fake, prompt, "Send without comment")
    await settle(fake, bot)
    filed = fake.message(ALICE.id, picker.message_id)
    assert "your report is filed" in (filed.text or "")
    assert filed.buttons == []
    (post,) = report_posts(fake)
    assert "💬 No comment." in (post.text or "")
    assert "Typo" in (post.text or "")
    assert (await say(fake, "hello?")).text == NOT_A_COMMAND
    (report,) = await stored(bot)
    assert report.comment is None
    assert report.comment_until is None


async def test_report_is_posted_without_comment_when_the_window_runs_out(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """No comment in 10 minutes: the report is posted as it is; a late text is told so, once."""
    _, explanation = await explained_question(fake, bot)
    await pick(fake, await open_picker(fake, explanation), "Outdated")
    clock.advance(minutes=9)
    await settle(fake, bot)
    assert not report_posts(fake)
    clock.advance(minutes=1, seconds=1)
    await settle(fake, bot)
    (post,) = report_posts(fake)
    assert "💬 No comment." in (post.text or "")
    assert (await say(fake, "oh, and one more thing")).text == (
        "⏳ Too late for a comment: your report was filed without one."
    )
    assert (await say(fake, "hello?")).text == NOT_A_COMMAND
    (report,) = await stored(bot)
    assert report.comment is None


async def test_second_open_report_on_the_same_question_is_refused(
    fake: BotApiServer, bot: RunningBot
) -> None:
    """One open report per learner and question: a second one is refused and writes nothing."""
    _, explanation = await explained_question(fake, bot)
    picker = await open_picker(fake, explanation)
    await pick(fake, picker, "Unclear question")
    again = await say(fake, "/quiz")  # meanwhile another question: the first stays reported
    del again
    answer = await fake.callback_answer(
        fake.press_button(private(), ALICE, explanation.message_id, explanation.button("Report"))
    )
    assert answer.show_alert
    assert "already have an open report" in (answer.text or "")
    # A reason pressed on the old picker data (kept by a client) is refused too.
    (report,) = await stored(bot)
    forged = f"rp:{report.ask_id}:k"
    refused = await fake.callback_answer(
        fake.press_button(private(), ALICE, picker.message_id, forged)
    )
    assert refused.show_alert
    assert "already have an open report" in (refused.text or "")
    assert len(await stored(bot)) == 1


async def test_the_eleventh_report_of_a_utc_day_is_refused(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """Ten reports a UTC day per learner: the 11th is refused; after 00:00 UTC they may again."""
    _, explanation = await explained_question(fake, bot)
    ask_id = int(explanation.button("⚑ Report").split(":")[1])
    earlier = clock.now() - timedelta(hours=1)
    async with bot.store.transaction() as tx:  # nine reports made earlier today
        for number in range(9):
            seeded = NewReport(
                ALICE.id, ask_id, "some-deck", f"question-{number}", "0" * 12, (0, 1),
                None, ReportReason.TYPO, earlier, earlier,
            )  # fmt: skip
            assert await tx.create_report(seeded) is not None
            await tx.end_comment_phases(ALICE.id, earlier)
    picker = await open_picker(fake, explanation)
    assert (await pick(fake, picker, "Typo")).text == "⚑ Report saved"
    _, other = await explained_question(fake, bot)
    answer = await fake.callback_answer(
        fake.press_button(private(), ALICE, other.message_id, other.button("⚑ Report"))
    )
    assert answer.show_alert
    assert answer.text == (
        "You've sent 10 reports today — thank you! "
        "Please send more after 00:00 UTC, when the count starts again."
    )
    other_ask = int(other.button("⚑ Report").split(":")[1])
    refused = await fake.callback_answer(
        fake.press_button(private(), ALICE, picker.message_id, f"rp:{other_ask}:t")
    )
    assert refused.text == answer.text
    assert len(await stored(bot)) == 10
    clock.set(clock.now().replace(hour=0, minute=0) + timedelta(days=1))
    await open_picker(fake, other)
    assert len(await stored(bot)) == 10
