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


async def spawn_bot(*args: str, cwd: Path, env: dict[str, str]) -> asyncio.subprocess.Process:
    """`python -m bot ARGS…` started, its stdout and stderr piped."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *args,
        cwd=cwd,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def run_bot(*args: str, cwd: Path, env: dict[str, str]) -> tuple[int, str, str]:
    """`python -m bot ARGS…` to its end: exit status, stdout, stderr."""
    proc = await spawn_bot(*args, cwd=cwd, env=env)
    out, err = await asyncio.wait_for(proc.communicate(), timeout=60)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()
