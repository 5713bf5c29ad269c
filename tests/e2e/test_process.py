"""`python -m bot` as an operator runs it: no token, bad settings, SIGTERM, deck tools."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

from bot.playground.botapi import BotApiServer
from tests.e2e.conftest import wait_for_polling
from tests.e2e.helpers.process import REPO, bot_env, run_bot, spawn_bot

SEED_COPY = REPO / "tests" / "content" / "data" / "nca-multi-gpu-5.txt"


async def test_run_without_token_prints_one_line_on_getting_one(tmp_path: Path) -> None:
    """`run` with no token exits 2 with one line naming @BotFather and .env, no traceback."""
    code, out, err = await run_bot("run", cwd=tmp_path, env=bot_env())
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert "@BotFather" in lines[0]
    assert "TELEGRAM_BOT_TOKEN" in lines[0]
    assert ".env" in lines[0]
    assert "Traceback" not in err


async def test_webhook_mode_without_token_is_an_error_not_the_playground(tmp_path: Path) -> None:
    """Where a token is expected (a webhook URL is set), a missing one is the clear error."""
    env = bot_env(QUIZBOT_WEBHOOK_URL="https://bot.example.org/hook", QUIZBOT_WEBHOOK_SECRET="s")
    code, out, err = await run_bot(cwd=tmp_path, env=env)
    assert code == 2
    assert "playground" not in out
    assert "TELEGRAM_BOT_TOKEN" in err
    assert "Traceback" not in err


async def test_invalid_setting_names_the_variable(tmp_path: Path) -> None:
    """A bad value stops the start with the variable's name and never echoes the token."""
    env = bot_env(TELEGRAM_BOT_TOKEN="1:secret-token-value", QUIZBOT_TIMEZONE="Mars/Olympus")
    code, _, err = await run_bot(cwd=tmp_path, env=env)
    assert code == 2
    assert "QUIZBOT_TIMEZONE: unknown time zone 'Mars/Olympus'" in err
    assert "secret-token-value" not in err
    assert "Traceback" not in err


async def test_sigterm_stops_the_bot_cleanly(tmp_path: Path, fake: BotApiServer) -> None:
    """SIGTERM while polling ends the process with status 0, never logging the token."""
    env = bot_env(
        TELEGRAM_BOT_TOKEN=fake.token,
        QUIZBOT_API_BASE_URL=fake.url,
        QUIZBOT_DATABASE=str(tmp_path / "quiz.sqlite3"),
    )
    proc = await spawn_bot(cwd=tmp_path, env=env)
    await wait_for_polling(fake, timeout=30)
    proc.send_signal(signal.SIGTERM)
    out, err = await asyncio.wait_for(proc.communicate(), timeout=30)
    log = err.decode()
    assert proc.returncode == 0, log
    assert "stopping" in log
    assert "Traceback" not in log
    assert fake.token not in log + out.decode()


async def test_import_deck_writes_yaml_with_empty_wrong_lists(tmp_path: Path) -> None:
    """import-deck turns the seed text into a deck file with five questions to fill in."""
    target = tmp_path / "imported.yaml"
    code, out, _ = await run_bot(
        "import-deck", str(SEED_COPY), "-o", str(target), cwd=tmp_path, env=bot_env()
    )
    assert code == 0
    assert "5 questions" in out
    assert target.read_text(encoding="utf-8").count("wrong: []") == 5


async def test_check_decks_prints_file_question_field_and_exits_nonzero(tmp_path: Path) -> None:
    """check-decks prints each problem as `file: question-id: field: what` and exits 1."""
    (tmp_path / "broken.yaml").write_text(
        "id: broken\ntitle: Broken\nsource: test\nquestions:\n"
        "  - id: only-one\n    topic: t\n    text: Why?\n    answer: Because\n"
        "    wrong: []\n    explanation: It is so.\n",
        encoding="utf-8",
    )
    code, out, _ = await run_bot("check-decks", str(tmp_path), cwd=tmp_path, env=bot_env())
    assert code == 1
    assert out.startswith("broken.yaml: only-one: wrong: ")


async def test_check_decks_accepts_the_shipped_decks(tmp_path: Path) -> None:
    """The decks shipped in content/ pass check-decks."""
    code, out, _ = await run_bot("check-decks", cwd=tmp_path, env=bot_env())
    assert code == 0
    assert "valid" in out
