"""Running `python -m bot` as a child process, as an operator does."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def bot_env(**extra: str) -> dict[str, str]:
    """This environment without any QUIZBOT_/TELEGRAM_ variable, the repo importable, `extra`."""
    keep = {k: v for k, v in os.environ.items() if not k.startswith(("QUIZBOT_", "TELEGRAM_"))}
    return keep | {"PYTHONPATH": str(REPO)} | extra


# `python -m bot` as a fresh `make run` install has it: without the `postgres` extra's asyncpg.
WITHOUT_ASYNCPG = (
    "import runpy, sys; sys.modules['asyncpg'] = None; "
    "sys.argv[0] = 'bot'; runpy.run_module('bot', run_name='__main__', alter_sys=True)"
)


async def spawn_bot(
    *args: str, cwd: Path, env: dict[str, str], without_asyncpg: bool = False
) -> asyncio.subprocess.Process:
    """`python -m bot ARGS…` started, its stdout and stderr piped (`without_asyncpg`: as if
    the `postgres` extra were not installed)."""
    start = ["-c", WITHOUT_ASYNCPG, *args] if without_asyncpg else ["-m", "bot", *args]
    return await asyncio.create_subprocess_exec(
        sys.executable,
        *start,
        cwd=cwd,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def run_bot(
    *args: str, cwd: Path, env: dict[str, str], without_asyncpg: bool = False
) -> tuple[int, str, str]:
    """`python -m bot ARGS…` to its end: exit status, stdout, stderr."""
    proc = await spawn_bot(*args, cwd=cwd, env=env, without_asyncpg=without_asyncpg)
    out, err = await asyncio.wait_for(proc.communicate(), timeout=60)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()
