"""The long poll: what the page does when the playground goes away."""

from __future__ import annotations

import time

from playwright.async_api import expect

from tests.bot.playground.web.pages import OpenPage, Served

QUICK_STOP_SECONDS = 5.0  # far below the long poll's 25 s


async def test_stopping_ends_the_long_poll_and_the_page_says_it_is_reconnecting(
    served: Served, open_page: OpenPage
) -> None:
    """Stopping the playground does not wait for the page's long poll; the page keeps what it
    drew and shows that it is reconnecting."""
    playground = await open_page()
    note = playground.page.get_by_role("status").filter(has_text="Reconnecting")
    await expect(note).to_be_hidden()

    began = time.monotonic()
    await served.stop()

    assert time.monotonic() - began < QUICK_STOP_SECONDS
    await expect(note).to_be_visible()
    await expect(playground.chat("private").locator(".chat-title")).to_have_text("quizbot")
