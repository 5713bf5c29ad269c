"""The reports chat: only its admins resolve reports; a missing or lost chat loses no report."""

from __future__ import annotations

import asyncio

import pytest

from bot.app import RunningBot
from bot.cli.main import main
from bot.config import Settings
from bot.core.model import ReportStatus
from bot.playground.botapi import BotApiServer, FakeUser, StoredMessage
from tests.e2e.conftest import ALICE, BOB
from tests.e2e.helpers.reports import (
    EDITOR,
    READER,
    REPORTS,
    explained_question,
    open_picker,
    pick,
    press,
    report_posts,
    say,
    settle,
    stored,
)


async def _report(
    fake: BotApiServer, bot: RunningBot, reason: str, user: FakeUser = ALICE
) -> StoredMessage:
    """`user` reports a fresh question with `reason`, without a comment; the prompt message."""
    _, explanation = await explained_question(fake, bot, user)
    picker = await open_picker(fake, explanation, user)
    await pick(fake, picker, reason, user)
    prompt = fake.message(user.id, picker.message_id)
    await pick(fake, prompt, "Send without comment", user)
    await settle(fake, bot)
    return prompt


class TestWithReportsChat:
    @pytest.fixture
    def settings(self, settings: Settings) -> Settings:
        return settings.model_copy(update={"reports_chat": REPORTS.id})

    async def test_a_member_who_is_not_admin_cannot_mark_a_report(
        self, fake: BotApiServer, bot: RunningBot
    ) -> None:
        """`Fixed` pressed by a plain member is refused; the report and its message stay as
        they were."""
        fake.set_admins(REPORTS.id, [EDITOR.id])
        await _report(fake, bot, "Typo")
        (post,) = report_posts(fake)
        before = post.text
        answer = await press(fake, REPORTS, READER, post, post.button("Fixed"))
        assert answer.show_alert
        assert answer.text == "Only this chat's admins can mark reports."
        (report,) = await stored(bot)
        assert report.status is ReportStatus.OPEN
        assert fake.message(REPORTS.id, post.message_id).text == before
        assert len(fake.message(REPORTS.id, post.message_id).buttons) == 2

    async def test_admins_mark_reports_fixed_or_dismissed(
        self, fake: BotApiServer, bot: RunningBot
    ) -> None:
        """An admin's `Fixed` / `Dismiss` sets the status, names them in the message and takes
        the buttons away; a second press is told it is done; the learner may report again."""
        fake.set_admins(REPORTS.id, [EDITOR.id])
        await _report(fake, bot, "Typo")
        await _report(fake, bot, "Other", BOB)
        first, second = report_posts(fake)
        fixed = await press(fake, REPORTS, EDITOR, first, first.button("Fixed"))
        assert fixed.text == "Marked fixed"
        dismissed = await press(fake, REPORTS, EDITOR, second, second.button("Dismiss"))
        assert dismissed.text == "Dismissed"
        edited = fake.message(REPORTS.id, first.message_id)
        assert edited.buttons == []
        assert "✅ Fixed by Edith Editor, 2026-12-02" in (edited.text or "")
        dismissed_text = fake.message(REPORTS.id, second.message_id).text or ""
        assert "🗑 Dismissed by Edith Editor" in dismissed_text
        by_user = {report.user_id: report for report in await stored(bot)}
        assert by_user[ALICE.id].status is ReportStatus.FIXED
        assert by_user[ALICE.id].resolved_by == EDITOR.id
        assert by_user[ALICE.id].resolved_at is not None
        assert by_user[BOB.id].status is ReportStatus.DISMISSED
        again = await press(fake, REPORTS, EDITOR, first, f"rd:{by_user[ALICE.id].id}")
        assert again.text == "Already fixed."
        assert by_user[ALICE.id].status is ReportStatus.FIXED
        # The fixed question may be reported again by the same learner.
        ask = await bot.store.get_ask(by_user[ALICE.id].ask_id)
        assert ask is not None
        picker = await say(fake, f"/start report-{ask.id}")
        assert "What's wrong with it?" in (picker.text or "")

    async def test_a_reports_chat_the_bot_was_removed_from_loses_no_report(
        self, fake: BotApiServer, bot: RunningBot
    ) -> None:
        """Posting fails with 403: the reports stay stored and open, nothing stays owed, and
        the learner's flow is not held up."""
        fake.kick_bot(REPORTS.id)
        first = await _report(fake, bot, "Typo")
        second = await _report(fake, bot, "Outdated")
        assert "your report is filed" in (first.text or "")
        assert "your report is filed" in (second.text or "")
        assert [r.status for r in await stored(bot)] == [ReportStatus.OPEN] * 2
        assert not await bot.store.pending_effects(REPORTS.id, 10)
        assert fake.calls_to("sendMessage", lambda p: p.get("chat_id") == REPORTS.id)
        assert fake.bot_messages(REPORTS.id) == []


async def test_without_a_reports_chat_reports_are_stored_and_listed_by_the_cli(
    fake: BotApiServer,
    bot: RunningBot,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """QUIZBOT_REPORTS_CHAT unset: nothing is posted anywhere, and `python -m bot reports`
    lists the open reports (`--all` also the resolved ones, `--deck` one deck's)."""
    assert settings.reports_chat is None
    await _report(fake, bot, "Explanation wrong")
    _, explanation = await explained_question(fake, bot, BOB)
    await pick(fake, await open_picker(fake, explanation, BOB), "Typo", BOB)
    await say(fake, "'Nvlink' should be 'NVLink'", BOB)
    await settle(fake, bot)
    alice, bob = sorted(await stored(bot), key=lambda report: report.user_id)
    chats = {call.params.get("chat_id") for call in fake.calls_to("sendMessage")}
    assert chats <= {ALICE.id, BOB.id}
    assert await bot.store.resolve_report(
        alice.id, ReportStatus.DISMISSED, EDITOR.id, alice.created_at
    )
    monkeypatch.setenv("QUIZBOT_DATABASE", str(settings.database))

    async def cli(*argv: str) -> str:
        assert await asyncio.to_thread(main, ["reports", *argv]) == 0
        return capsys.readouterr().out

    listed = await cli()
    assert f"#{bob.id}  " in listed
    assert f"#{alice.id}  " not in listed
    assert f"{bob.deck_id}/{bob.question_id}  version {bob.question_hash}  [open]" in listed
    assert "comment: 'Nvlink' should be 'NVLink'" in listed
    assert f"typo; chose {'ABCDEFGH'[bob.chosen or 0]}" in listed
    assert listed.endswith("1 open report\n")
    everything = await cli("--all")
    assert f"#{alice.id}  " in everything
    assert "[dismissed 2026-12-02" in everything
    assert everything.endswith("2 reports\n")
    assert (await cli("--all", "--deck", "no-such-deck")).endswith("0 reports\n")
