"""A photo question on the page: the picture from the page's own server, its caption drawn from
its entities, its buttons, and a caption edit marked as such."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from aiohttp import web
from playwright.async_api import expect
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup

from bot.config import Settings
from bot.playground.session import Playground, playground
from bot.playground.web.routes import build_app
from tests.bot.playground.botapi.pictures import png
from tests.bot.playground.web.pages import BOT_MS, OpenPage, letter

LOOPBACK = "127.0.0.1"
DIAGRAM = png(96, 64, (21, 101, 192))


@dataclass
class ServedSession:
    """The page's address, and the session behind it (its server sends what the bot would)."""

    url: str
    session: Playground


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[ServedSession]:
    """Overrides the conftest's: the same playground and page, with the session at hand."""
    settings = Settings(_env_file=None, database=str(tmp_path / "data" / "quizbot.sqlite3"))
    async with playground(settings, settings.playground_folder()) as session:
        runner = web.AppRunner(build_app(session), access_log=None)
        await runner.setup()
        try:
            site = web.TCPSite(runner, LOOPBACK, 0)
            await site.start()
            port = runner.addresses[0][1]
            yield ServedSession(f"http://{LOOPBACK}:{port}", session)
        finally:
            await runner.cleanup()


async def test_a_photo_question_shows_its_picture_caption_and_buttons(
    served: ServedSession, open_page: OpenPage
) -> None:
    """The bot's photo is drawn at its size from /api/photo, the caption below it with its
    formatting, the buttons under it; an edited caption is redrawn and marked edited."""
    page = await open_page()
    server, chat_id = served.session.server, served.session.private.id
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton(x, callback_data=x) for x in "AB"]])
    async with Bot(server.token, base_url=f"{server.url}/bot") as bot:
        sent = await bot.send_photo(
            chat_id,
            DIAGRAM,
            caption="<b>Which curve</b> rises?",
            parse_mode="HTML",
            reply_markup=keyboard,
        )
        message = page.message("private", str(sent.message_id))
        picture = message.locator("img.photo")
        await expect(picture).to_be_visible(timeout=BOT_MS)
        drawn = await picture.evaluate(
            "img => img.decode().then(() => [img.naturalWidth, img.naturalHeight, img.alt])"
        )
        assert drawn == [96, 64, "Photo"]
        await expect(picture).to_have_attribute("src", f"/api/photo/{sent.photo[-1].file_id}")
        await expect(message.locator(".text strong")).to_have_text("Which curve")
        await expect(message.locator(".text")).to_have_text("Which curve rises?")
        assert await message.locator(".bubble > *").evaluate_all(
            "nodes => nodes.map(node => node.className)"
        ) == ["photo", "text"]
        await expect(letter(message, "B")).to_be_visible()

        await bot.edit_message_caption(
            chat_id, sent.message_id, caption="Which curve <i>falls</i>?", parse_mode="HTML"
        )
        await expect(message.locator(".text em")).to_have_text("falls")
        await expect(message.locator(".meta")).to_have_text("edited")
        await expect(message.get_by_role("button")).to_have_count(0)
        await expect(message.locator("img.photo")).to_be_visible()
