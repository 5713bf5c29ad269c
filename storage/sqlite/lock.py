"""One process per SQLite file: a lock file beside the database.

Two processes on one file would each send every daily push and poll Telegram against the
other; the second one refuses to start instead. The lock is an advisory `flock` the kernel
drops when the process ends, however it ends.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path


class DatabaseInUseError(RuntimeError):
    """Another quizbot process has the SQLite database open."""


class ProcessLock:
    def __init__(self, database: Path) -> None:
        self.path = database.with_name(database.name + ".lock")
        self._fd: int | None = None

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            raise DatabaseInUseError(
                f"another quizbot process (pid {holder}) is using {self.path.with_suffix('')}; "
                "stop it first. One process serves a SQLite database: for several replicas, "
                "use PostgreSQL (QUIZBOT_DATABASE=postgresql://…)."
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None
