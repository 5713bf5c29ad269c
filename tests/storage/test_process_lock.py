"""One process per SQLite file: the lock file beside the database."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from storage.sqlite.lock import DatabaseInUseError, ProcessLock

HOLD = (
    "import sys; from pathlib import Path; from storage.sqlite.lock import ProcessLock; "
    "ProcessLock(Path(sys.argv[1])).acquire(); print('held', flush=True); sys.stdin.read()"
)


def test_a_second_process_on_the_same_file_is_refused_with_the_holders_pid(
    tmp_path: Path,
) -> None:
    """While one process holds the file, another gets a clear error naming it and PostgreSQL."""
    database = tmp_path / "quiz.sqlite3"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(database)],
        stdin=subprocess.PIPE,  # the holder waits on it until it is killed
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(DatabaseInUseError, match=rf"pid {holder.pid}.*PostgreSQL"):
            ProcessLock(database).acquire()
    finally:
        holder.kill()
        holder.wait()
        for stream in (holder.stdin, holder.stdout):
            if stream is not None:
                stream.close()
    lock = ProcessLock(database)  # the kernel dropped the dead holder's lock
    lock.acquire()
    lock.release()


def test_the_lock_is_free_again_after_release(tmp_path: Path) -> None:
    """A bot that stopped cleanly leaves the file free for the next start."""
    first = ProcessLock(tmp_path / "quiz.sqlite3")
    first.acquire()
    assert (tmp_path / "quiz.sqlite3.lock").read_text() == str(os.getpid())
    first.release()
    second = ProcessLock(tmp_path / "quiz.sqlite3")
    second.acquire()
    second.release()
