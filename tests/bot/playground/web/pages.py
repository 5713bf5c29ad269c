"""The playground page as the browser tests drive it: its chats, messages and controls."""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from playwright.async_api import Locator, Page, expect

Chat = Literal["private", "group"]
REPO = Path(__file__).resolve().parents[4]
DOCS_IMAGES = REPO / "docs" / "images"
STATIC = REPO / "bot" / "playground" / "web" / "static"
RENDER = REPO / "bot" / "render"
BOT_MS = 15_000  # how long the bot may take to answer something
YOU = "You"
MEMBERS = ("Ada", "Grace", "Alan", "Katherine")

STOP_SECONDS = 30.0

OpenPage = Callable[..., Awaitable["PlaygroundPage"]]  # (width, height, *, phone) -> the page


@dataclass
class Served:
    """A playground serving its page in the test's event loop."""

    url: str
    _stop: asyncio.Event
    _serving: asyncio.Task[list[str]]

    async def stop(self) -> None:
        """Stop serving (again: nothing) and wait until it has stopped."""
        self._stop.set()
        await asyncio.wait_for(self._serving, STOP_SECONDS)


class PlaygroundPage:
    def __init__(self, page: Page) -> None:
        self.page = page

    def chat(self, chat: Chat) -> Locator:
        return self.page.locator(f"#chat-{chat}")

    def bot_messages(self, chat: Chat) -> Locator:
        return self.chat(chat).locator('.msg[data-from="bot"]')

    def message(self, chat: Chat, message_id: str) -> Locator:
        return self.chat(chat).locator(f'.msg[data-id="{message_id}"]')

    def toast(self, text: str | re.Pattern[str]) -> Locator:
        return self.page.locator(".toast", has_text=text)

    async def say(self, chat: Chat, text: str) -> None:
        """Type `text` in the chat's input and press Enter."""
        box = self.chat(chat).get_by_role("textbox")
        await box.fill(text)
        await box.press("Enter")

    async def question(self, chat: Chat) -> Locator:
        """The newest question of the chat (a bot message with an `A` button), pinned by its
        message id so that it stays found after the bot edits it."""
        asked = self.bot_messages(chat).filter(has=letter(self.page, "A")).last
        await expect(asked).to_be_visible(timeout=BOT_MS)
        message_id = await asked.get_attribute("data-id")
        assert message_id is not None
        return self.message(chat, message_id)

    async def quiz(self, chat: Chat) -> Locator:
        """Send /quiz in the chat; its question."""
        await self.say(chat, "/quiz")
        return await self.question(chat)

    async def answer(self, question: Locator, first: str, *, tap: bool = False) -> None:
        """Press `first`; on a "choose N" question (the shipped deck has them), also the
        letters after it until N are picked, then Submit once the bot has taken the picks."""
        submit = question.get_by_role("button", name="Submit", exact=True)
        if not await submit.count():
            await _press(letter(question, first), tap)
            return
        wanted = re.search(r"Pick (\d+) letters", await question.inner_text())
        assert wanted is not None, "a Submit button without its 'Pick N letters' line"
        letters = "ABCDEFGH"[: await question.get_by_role("button").count() - 1]
        start = letters.index(first)
        for n in range(int(wanted.group(1))):
            await _press(letter(question, letters[(start + n) % len(letters)]), tap)
        await expect(self.toast(re.compile("press Submit"))).to_be_visible(timeout=BOT_MS)
        await _press(submit, tap)

    async def set_pace(self, accuracy: int, fastest: float, slowest: float) -> None:
        """Set the members' pace in the panel."""
        await self.page.get_by_label("Right answers (%)").fill(str(accuracy))
        await self.page.get_by_label("Fastest answer (s)").fill(str(fastest))
        await self.page.get_by_label("Slowest answer (s)").fill(str(slowest))
        await self.page.get_by_role("button", name="Set pace").click()
        await expect(self.toast("new pace")).to_be_visible()

    async def load_deck(self, path: Path) -> None:
        await self.page.get_by_label("Load a deck file (.yaml)").set_input_files(path)

    async def screenshot(self, name: str) -> None:
        """Write the page into docs/images/ (the docs' pictures are taken here) when what
        draws it changed since the picture there was taken: the page's files or the bot's
        renderers. (Each run's picture differs a little, in the clock and the question drawn;
        rewriting it on every run would leave every checkout changed.)"""
        source = DOCS_IMAGES / f"{name}.source"
        drawn_by = _drawn_by()
        picture = DOCS_IMAGES / name
        if picture.exists() and source.exists() and source.read_text().strip() == drawn_by:
            return
        DOCS_IMAGES.mkdir(parents=True, exist_ok=True)
        await self.page.screenshot(path=picture, animations="disabled")
        source.write_text(drawn_by + "\n")


def _drawn_by() -> str:
    """A digest of what decides how the page looks: its static files and the renderers."""
    digest = hashlib.sha256()
    static = [path for path in STATIC.rglob("*") if path.is_file()]
    for path in sorted([*static, *RENDER.rglob("*.py")]):
        digest.update(path.relative_to(REPO).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


async def _press(button: Locator, tap: bool) -> None:
    await (button.tap() if tap else button.click())


def letter(where: Page | Locator, name: str) -> Locator:
    """An answer button (`A`, `B`, …) by its exact label."""
    return where.get_by_role("button", name=name, exact=True)
