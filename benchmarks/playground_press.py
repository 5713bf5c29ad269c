"""A press in the playground's page → the explanation shown (`benchmarks.playground_press`).

Starts `python -m bot playground` as a newcomer does (a child process, no token, a fresh
folder; the seconds until the page answers are printed too), opens the page in Debian's
Chromium with Playwright, and `--presses` times: sends /quiz in the private chat, waits for the
question, presses `A` (on a "choose N" question: picks N letters, then the timed press is
`Submit`), and waits until the explanation is in the page. The time is taken inside
the page (`performance.now()` when the button is clicked, and when a MutationObserver sees the
explanation's bubble appear), so it is what a person sees: the page's request, the bot's
long poll, its handling and sends at Telegram's real limits, the page's long poll and drawing.
A think time between presses keeps the private chat within Telegram's 1 message a second.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import signal
import socket
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
from playwright.async_api import Locator, Page, async_playwright

from benchmarks.harness import ROOT, percentile, table

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Resolves with the milliseconds from the click of the button named `name` (`A`, or `Submit` on
# a "choose N" question) on the newest question of the private chat until a new bot bubble
# with an explanation (💡) appears there.
TIMED_PRESS = """
(name) => new Promise((resolve) => {
  const chat = document.querySelector('#chat-private');
  const known = new Set([...chat.querySelectorAll('.msg')].map((m) => m.dataset.id));
  const questions = [...chat.querySelectorAll('.msg[data-from="bot"]')].filter(
    (m) => [...m.querySelectorAll('button')].some((b) => b.textContent.trim() === name));
  const button = [...questions.at(-1).querySelectorAll('button')].find(
    (b) => b.textContent.trim() === name);
  const observer = new MutationObserver(() => {
    for (const m of chat.querySelectorAll('.msg[data-from="bot"]')) {
      if (!known.has(m.dataset.id) && m.textContent.includes('💡')) {
        observer.disconnect();
        resolve(performance.now() - started);
        return;
      }
    }
  });
  observer.observe(chat, { childList: true, subtree: true, characterData: true });
  const started = performance.now();
  button.click();
})
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def _answering(base: str, since: float) -> float:
    """Seconds from `since` until the page answers."""
    async with aiohttp.ClientSession() as session:
        for _ in range(1200):
            try:
                async with session.get(base) as answer:
                    if answer.status == 200:
                        return time.monotonic() - since
            except aiohttp.ClientConnectionError:
                pass
            await asyncio.sleep(0.05)
    raise SystemExit("the playground never answered")


async def _picked(page: Page, question: Locator, think: float) -> str:
    """The button whose press is timed: `A`, or on a "choose N" question (the shipped deck has
    them) `Submit`, once N letters are picked and the bot has taken them."""
    if not await question.get_by_role("button", name="Submit", exact=True).count():
        return "A"
    pinned = await question.get_attribute("data-id")  # its letters' names change as they tick
    question = page.locator(f'#chat-private .msg[data-id="{pinned}"]')
    wanted = re.search(r"Pick (\d+) letters", await question.inner_text())
    for name in "ABCDEFGH"[: int(wanted.group(1)) if wanted else 2]:
        await question.get_by_role("button", name=name, exact=True).click()
    await page.locator(".toast", has_text="press Submit").wait_for(timeout=15_000)
    await asyncio.sleep(think)
    return "Submit"


async def measure(
    args: argparse.Namespace, folder: Path, chromium: str
) -> tuple[float, list[tuple[str, float]]]:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("QUIZBOT_", "TELEGRAM_"))}
    env |= {"PYTHONPATH": str(ROOT), "QUIZBOT_PLAYGROUND_PORT": str(port)}
    env |= {"QUIZBOT_LOG_LEVEL": "WARNING"}
    base = f"http://127.0.0.1:{port}"
    started = time.monotonic()
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=folder, env=env, stdout=asyncio.subprocess.DEVNULL
    )
    times: list[tuple[str, float]] = []
    try:
        startup = await _answering(base, started)
        async with async_playwright() as driver:
            browser = await driver.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            page = await browser.new_page(viewport={"width": 1280, "height": 800})
            await page.goto(base)
            await page.locator('body[data-ready="true"]').wait_for(timeout=15_000)
            chat = page.locator("#chat-private")
            for i in range(args.presses):
                asked = chat.locator('.msg[data-from="bot"]').filter(
                    has=page.get_by_role("button", name="A", exact=True)
                )
                before = await asked.count()
                box = chat.get_by_role("textbox")
                await box.fill("/quiz")
                await box.press("Enter")
                await asked.nth(before).wait_for(timeout=15_000)
                await asyncio.sleep(args.think)
                timed = await _picked(page, asked.nth(before), args.think)
                times.append((timed, float(await page.evaluate(TIMED_PRESS, timed))))
                print(f"  press {i + 1} ({timed}): {times[-1][1]:.0f} ms", flush=True)
                await asyncio.sleep(args.think)
            await browser.close()
    finally:
        child.send_signal(signal.SIGTERM)
        await asyncio.wait_for(child.wait(), 60)
    return startup, times


def _p50(values: list[float]) -> float:
    return percentile(values, 0.5)


def _p95(values: list[float]) -> float:
    return percentile(values, 0.95)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.playground_press",
        description=__doc__.splitlines()[0] if __doc__ else "",
    )
    parser.add_argument("--presses", type=int, default=20, help="timed presses (20)")
    parser.add_argument("--think", type=float, default=2.0, help="seconds before each step")
    args = parser.parse_args(argv)
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(chromium).exists():
        raise SystemExit("needs Debian's chromium (apt-get install chromium)")
    with tempfile.TemporaryDirectory(prefix="quizbot-bench-press-") as scratch:
        startup, times = asyncio.run(measure(args, Path(scratch), chromium))
    print(f"python -m bot (no token) → the page answers: {startup:.1f} s")
    kinds = {
        "press → explanation shown (all)": [ms for _, ms in times],
        "  A (one-letter questions)": [ms for name, ms in times if name == "A"],
        "  Submit (choose N, letters picked)": [ms for name, ms in times if name == "Submit"],
    }
    rows = [
        [label, str(len(values)), *(f"{f(values):.0f}" for f in (_p50, _p95, max))]
        for label, values in kinds.items()
        if values
    ]
    print("\n".join(table(["in the page", "n", "p50 ms", "p95 ms", "max ms"], rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
