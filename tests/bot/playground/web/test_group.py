"""The group in a wide window: a question the members answer, closed with the clock, revealed,
and the leaderboard after it."""

from __future__ import annotations

import re

from playwright.async_api import expect

from tests.bot.playground.web.pages import BOT_MS, MEMBERS, YOU, PlaygroundPage, letter

ALL_ANSWERED_MS = 30_000  # members press within a second; the count is edited every 5 s


async def test_group_question_is_answered_closed_revealed_and_ranked(
    playground: PlaygroundPage,
) -> None:
    """A group /quiz counts the members' and the person's answers (the person's press gets an
    alert), closes with the clock, is revealed without its answer buttons, and /leaderboard
    names everyone who answered."""
    page = playground.page
    await playground.set_pace(accuracy=75, fastest=0.2, slowest=1.0)
    question = await playground.quiz("group")
    await expect(question.locator(".sender")).to_have_text("quizbot")

    await playground.answer(question, "A")
    alert = page.get_by_role("dialog")
    await expect(alert).to_contain_text(re.compile(r"Correct|Not quite"), timeout=BOT_MS)
    await page.keyboard.press("Escape")
    await expect(alert).to_be_hidden()
    await expect(question).to_contain_text("👥 5 answered · ⏳ open until", timeout=ALL_ANSWERED_MS)

    await page.get_by_role("button", name="Close open questions").click()
    await expect(question).to_contain_text(re.compile(r"👥 5 answered · \d right"), timeout=BOT_MS)
    await expect(letter(question, "A")).to_have_count(0)
    report = question.get_by_role("button", name=re.compile("Report a problem"))
    await expect(report).to_be_visible()
    await expect(page.locator(".toast")).to_have_count(0)  # the picture shows the whole reveal
    await playground.screenshot("playground-group.png")

    await playground.say("group", "/leaderboard")
    board = playground.bot_messages("group").filter(has_text="Leaderboard").last
    await expect(board).to_be_visible(timeout=BOT_MS)
    for name in (YOU, *MEMBERS):
        await expect(board).to_contain_text(name)
