"""A phone-sized window (390×844): one chat at a time, switched with tabs."""

from __future__ import annotations

import re

from playwright.async_api import expect

from tests.bot.playground.web.pages import BOT_MS, OpenPage


async def test_phone_window_sends_quiz_and_answers_it(open_page: OpenPage) -> None:
    """On a phone-sized window the private chat shows alone; /quiz is sent and answered there,
    and the tabs switch to the group, where what the person had typed is still there."""
    playground = await open_page(390, 844, phone=True)
    await expect(playground.chat("private")).to_be_visible()
    await expect(playground.chat("group")).to_be_hidden()
    await playground.page.get_by_role("button", name="Study group", exact=True).click()
    draft = playground.chat("group").get_by_role("textbox")
    await draft.fill("a draft in the group")
    await playground.page.get_by_role("button", name="Bot", exact=True).click()

    question = await playground.quiz("private")
    await playground.answer(question, "C", tap=True)
    await expect(playground.toast(re.compile(r"Correct|Not quite"))).to_be_visible(timeout=BOT_MS)
    await expect(question.get_by_role("button")).to_have_count(0)

    await playground.page.get_by_role("button", name="Study group", exact=True).click()
    await expect(playground.chat("group")).to_be_visible()
    await expect(playground.chat("private")).to_be_hidden()
    await expect(draft).to_have_value("a draft in the group")


async def test_link_to_the_bot_in_the_group_opens_the_private_chat(open_page: OpenPage) -> None:
    """/review in the group answers with a t.me link to the bot; pressing it switches to the
    private chat, where it sent /start with the link's payload, as Telegram does."""
    playground = await open_page(390, 844, phone=True)
    await playground.page.get_by_role("button", name="Study group", exact=True).click()
    await playground.say("group", "/review")
    link = playground.chat("group").get_by_role("button", name=re.compile("Review in private"))
    await link.click()

    await expect(playground.chat("private")).to_be_visible()
    await expect(playground.chat("group")).to_be_hidden()
    sent = playground.chat("private").locator('.msg[data-from="you"]')
    await expect(sent).to_have_text(re.compile(r"^/start \S+"))
    await expect(playground.bot_messages("private")).not_to_have_count(0, timeout=BOT_MS)
