"""`python -m bot copy-to-postgres`: the check's board order, the printed URL, the command
end to end."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from bot.cli.copy import redacted
from storage.copy.check import BOARD_ORDER
from storage.sql.boards import TOP


def test_the_check_ranks_boards_with_the_boards_own_order() -> None:
    """The ORDER BY the copy checks the boards with is the one the leaderboards use."""
    assert f"ORDER BY {BOARD_ORDER.sqlite} LIMIT ?" in TOP.sqlite
    assert f"ORDER BY {BOARD_ORDER.postgres} LIMIT ?" in TOP.postgres


def test_a_printed_url_hides_its_password() -> None:
    """The report names the target without the password in its URL."""
    assert redacted("postgresql://quiz:s3cret@db:5432/quiz") == "postgresql://quiz:***@db:5432/quiz"
    assert redacted("postgres://db/quiz") == "postgres://db/quiz"


async def run_cli(*args: str, cwd: Path) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "copy-to-postgres",
        *args,
        cwd=cwd,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await proc.communicate()
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def test_the_command_copies_and_verifies_then_refuses_a_second_copy(
    source: Path, tmp_path: Path, pg_url: str
) -> None:
    """`python -m bot copy-to-postgres`: exit 0 with the tables and the check's verdict; then
    exit 2 into the now filled database, and for a URL that is not PostgreSQL's."""
    code, out, err = await run_cli(str(source), pg_url, cwd=tmp_path)
    assert code == 0, err
    assert "verified: counts and leaderboards match" in out
    assert any(line.split()[0] == "answers" for line in out.splitlines()[1:] if line.strip())
    assert "copied " in out
    code, out, err = await run_cli(str(source), pg_url, cwd=tmp_path)
    assert (code, out) == (2, "")
    assert "not empty" in err
    assert "nothing was changed" in err
    code, _, err = await run_cli(str(source), "sqlite:///x", cwd=tmp_path)
    assert code == 2
    assert "must be a PostgreSQL URL" in err
    code, _, err = await run_cli(str(tmp_path / "none.sqlite3"), pg_url, cwd=tmp_path)
    assert code == 2
    assert "no such file" in err
