"""Fixtures for the playground page's browser tests: a playground served on a free port of
127.0.0.1, and Debian's Chromium driven by Playwright (never a downloaded browser)."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import NoReturn

import pytest
from playwright.async_api import Browser, Error, async_playwright, expect

from bot.config import Settings
from bot.playground.serve import serve
from tests.bot.playground.web.pages import OpenPage, PlaygroundPage, Served

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
START_SECONDS = 60.0


def _unavailable(reason: str) -> NoReturn:
    """Skip, except in CI, where a missing browser must fail the run."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI=true: the browser tests may not be skipped)")
    pytest.skip(reason)


def _chromium() -> str:
    found = shutil.which("chromium")
    if found is None and Path("/usr/bin/chromium").exists():
        found = "/usr/bin/chromium"
    if found is None:
        _unavailable("Chromium not found (apt-get install chromium)")
    return found


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[Served]:
    """A playground served in this test's event loop; stopped when the test ends."""
    port = _free_port()
    settings = Settings(
        _env_file=None,
        database=str(tmp_path / "data" / "quizbot.sqlite3"),
        playground_port=port,
    )
    stop, started = asyncio.Event(), asyncio.Event()
    serving = asyncio.create_task(serve(settings, stop, started=started))
    waiting = asyncio.create_task(started.wait())
    await asyncio.wait(
        {serving, waiting}, timeout=START_SECONDS, return_when=asyncio.FIRST_COMPLETED
    )
    if not started.is_set():
        waiting.cancel()
        stop.set()
        problems = await asyncio.wait_for(serving, START_SECONDS)
        raise RuntimeError(f"the playground did not serve its page: {problems or 'timed out'}")
    playground = Served(f"http://127.0.0.1:{port}", stop, serving)
    try:
        yield playground
    finally:
        await playground.stop()


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    executable = _chromium()
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            await launched.close()


@pytest.fixture
async def open_page(browser: Browser, served: Served) -> AsyncIterator[OpenPage]:
    """Opens the page in a window of the given size, once its first snapshot is drawn; the
    page's uncaught script errors fail the test."""
    errors: list[Error] = []
    contexts = []

    def threw(error: Error) -> None:
        errors.append(error)

    async def open_(width: int = 1280, height: int = 800, *, phone: bool = False) -> PlaygroundPage:
        context = await browser.new_context(
            viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone
        )
        contexts.append(context)
        page = await context.new_page()
        page.on("pageerror", threw)
        await page.goto(served.url)
        await expect(page.locator("body")).to_have_attribute("data-ready", "true")
        return PlaygroundPage(page)

    yield open_
    for context in contexts:
        await context.close()
    assert not errors, f"the page threw: {errors}"


@pytest.fixture
async def playground(open_page: OpenPage) -> PlaygroundPage:
    """The page in a wide window (1280×800)."""
    return await open_page()
