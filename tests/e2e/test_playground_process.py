"""`python -m bot` with no token, as a newcomer runs it: the playground, on loopback, with its
own database; nothing of the production database is touched."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import aiohttp

from tests.e2e.helpers.process import bot_env, run_bot, spawn_bot
from tests.e2e.helpers.webhook import free_port


async def _first_line(proc: asyncio.subprocess.Process) -> str:
    assert proc.stdout is not None
    line = await asyncio.wait_for(proc.stdout.readline(), timeout=30)
    return line.decode()


async def _page(port: int) -> str:
    """The page's HTML, once the server answers (the bot starts first)."""
    async with aiohttp.ClientSession() as session:
        for _ in range(300):
            try:
                async with session.get(f"http://127.0.0.1:{port}/") as answer:
                    return await answer.text()
            except aiohttp.ClientConnectionError:
                await asyncio.sleep(0.1)
    raise AssertionError("the playground's page never answered")


async def test_no_token_opens_the_playground_and_says_so_first(tmp_path: Path) -> None:
    """The first line names the playground's address and how to run the real bot; the page
    answers on 127.0.0.1; the files are the playground's own; SIGTERM ends it with 0. As
    `make run` installs it: without the `postgres` extra."""
    port = free_port()
    env = bot_env(QUIZBOT_PLAYGROUND_PORT=str(port))
    proc = await spawn_bot(cwd=tmp_path, env=env, without_asyncpg=True)
    try:
        first = await _first_line(proc)
        assert f"playground on http://127.0.0.1:{port}" in first
        assert "TELEGRAM_BOT_TOKEN" in first
        assert "make run" in first
        assert "<title>" in await _page(port)
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(proc.communicate(), timeout=30)
    assert proc.returncode == 0, err.decode()
    assert "Traceback" not in err.decode()
    assert (tmp_path / "data" / "playground" / "quizbot.sqlite3").exists()
    assert not (tmp_path / "data" / "quizbot.sqlite3").exists()


async def test_a_broken_deck_given_to_the_playground_is_named_and_nothing_starts(
    tmp_path: Path,
) -> None:
    """`playground --deck FILE` with a mistake exits 2 naming the file, question and field."""
    deck = tmp_path / "mine.yaml"
    deck.write_text(
        "id: mine\ntitle: Mine\nsource: me\nquestions:\n"
        "  - id: q1\n    topic: t\n    text: Which?\n    answer: A\n    wrong: []\n"
        "    explanation: Because.\n",
        encoding="utf-8",
    )
    port = free_port()
    env = bot_env(QUIZBOT_PLAYGROUND_PORT=str(port))
    code, _, err = await run_bot("playground", "--deck", str(deck), cwd=tmp_path, env=env)
    assert code == 2, err
    assert "mine.yaml: q1: " in err
    assert "Traceback" not in err


async def test_a_postgres_database_without_its_driver_is_one_clear_line(tmp_path: Path) -> None:
    """QUIZBOT_DATABASE a PostgreSQL URL, asyncpg not installed: exit 2 naming the extra."""
    env = bot_env(
        TELEGRAM_BOT_TOKEN="1:token", QUIZBOT_DATABASE="postgresql://quiz@127.0.0.1:1/quiz"
    )
    code, _, err = await run_bot("run", cwd=tmp_path, env=env, without_asyncpg=True)
    assert code == 2, err
    assert "pip install 'quizbot[postgres]'" in err
    assert "Traceback" not in err
    code, _, err = await run_bot(
        "copy-to-postgres",
        "x.sqlite3",
        "postgresql://h/db",
        cwd=tmp_path,
        env=bot_env(),
        without_asyncpg=True,
    )
    assert code == 2, err
    assert "quizbot[postgres]" in err
