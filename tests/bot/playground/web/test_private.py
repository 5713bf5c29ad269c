"""The private chat in a wide window: a question from the command menu, a press, its toast and
the explanation."""

from __future__ import annotations

import re

from playwright.async_api import expect

from tests.bot.playground.web.pages import BOT_MS, PlaygroundPage

VERDICT = re.compile(r"Correct|Not quite")


async def test_command_menu_quiz_and_a_press_show_the_toast_and_the_explanation(
    playground: PlaygroundPage,
) -> None:
    """/quiz from the command menu asks; a press gets a toast, the question is edited without
    its buttons, and the explanation follows as a reply quoting it."""
    chat = playground.chat("private")
    await chat.get_by_role("button", name="Commands").click()
    await chat.get_by_role("button", name=re.compile(r"^\/quiz\b")).click()
    question = await playground.question("private")
    await expect(question.locator("strong").first).to_have_text(re.compile(r"^NCA Multi-GPU"))
    await expect(question.locator("em").first).not_to_be_empty()

    await playground.answer(question, "B")

    await expect(playground.toast(VERDICT)).to_be_visible(timeout=BOT_MS)
    await expect(question.get_by_role("button")).to_have_count(0)
    await expect(question).to_contain_text("← your answer")
    await expect(question.locator(".meta")).to_have_text("edited")
    explanation = playground.bot_messages("private").filter(has_text="💡").last
    await expect(explanation).to_contain_text(VERDICT, timeout=BOT_MS)
    await expect(explanation.locator(".quote")).to_contain_text("NCA Multi-GPU")
    await expect(explanation).to_be_in_viewport()  # the chat stayed scrolled to the bottom
    await playground.screenshot("playground-private.png")


async def test_typed_command_is_sent_with_enter_and_shown_as_the_persons_bubble(
    playground: PlaygroundPage,
) -> None:
    """A command typed and sent with Enter shows as the person's message; the bot answers, and
    the input is left empty."""
    await playground.say("private", "/help")

    mine = playground.chat("private").locator('.msg[data-from="you"]')
    await expect(mine).to_have_text("/help")
    await expect(playground.bot_messages("private").last).to_contain_text("/quiz", timeout=BOT_MS)
    await expect(playground.chat("private").get_by_role("textbox")).to_have_value("")


async def test_clock_buttons_move_the_clock_and_say_how_far(playground: PlaygroundPage) -> None:
    """+1 hour moves the playground's clock and the panel says so; closing with nothing open
    says there was nothing to close; an API error (no daily set) shows as an error toast."""
    page = playground.page
    await page.get_by_role("button", name="+1 hour").click()

    await expect(page.locator("#clock-moved")).to_have_text("Moved forward 1 h")
    await page.get_by_role("button", name="Close open questions").click()
    await expect(playground.toast("No group question is open")).to_be_visible()
    await page.get_by_role("button", name="To the group's next daily question").click()
    error = page.locator(".toast.error", has_text="no daily question is set in the group")
    await expect(error).to_be_visible()
