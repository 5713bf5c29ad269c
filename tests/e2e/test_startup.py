"""Start-up failures an operator meets: the clear line, and nothing left open behind it."""

from __future__ import annotations

import os
import socket
from pathlib import Path

from storage.sqlite.lock import ProcessLock
from tests.e2e.helpers.process import bot_env, run_bot


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_no_network_at_start_prints_one_clear_line_and_closes_everything(
    tmp_path: Path,
) -> None:
    """Bot API unreachable: exit 1 with 'cannot reach the Bot API', no unclosed sessions."""
    env = bot_env(
        TELEGRAM_BOT_TOKEN="123:abc",
        QUIZBOT_API_BASE_URL=f"http://127.0.0.1:{_closed_port()}",
        QUIZBOT_DATABASE=str(tmp_path / "q.sqlite3"),
    )
    code, out, err = await run_bot(cwd=tmp_path, env=env)
    assert code == 1
    assert out == ""
    assert "quizbot: cannot reach the Bot API" in err
    assert "Unclosed" not in err
    assert "Traceback" not in err
    assert "123:abc" not in err


async def test_a_second_bot_on_the_same_sqlite_file_refuses_to_start(tmp_path: Path) -> None:
    """While one process serves the file, `python -m bot` on it exits 2 naming the holder."""
    database = tmp_path / "q.sqlite3"
    lock = ProcessLock(database)
    lock.acquire()  # as a running bot holds it
    try:
        env = bot_env(TELEGRAM_BOT_TOKEN="123:abc", QUIZBOT_DATABASE=str(database))
        code, out, err = await run_bot(cwd=tmp_path, env=env)
    finally:
        lock.release()
    assert code == 2
    assert out == ""
    assert f"another quizbot process (pid {os.getpid()})" in err
    assert "Traceback" not in err
