"""The SQLite side of the copy (storage/copy/): checking the file, its snapshot, and
reading its rows in batches."""

from __future__ import annotations

import asyncio
import fcntl
import os
import sqlite3
from collections.abc import AsyncGenerator, Iterator
from contextlib import closing, contextmanager
from functools import partial
from pathlib import Path
from typing import Any

from storage.copy.model import (
    RECORDS,
    RUNTIME_TABLES,
    CopyFailedError,
    CopyRefusedError,
    Table,
    quote,
)


def source_version(path: Path) -> int:
    """The file's schema version; CopyRefusedError unless it is a quizbot database."""
    if not path.is_file():
        raise CopyRefusedError(f"{path}: no such file; nothing was changed")
    try:
        # mode=rw: a file that vanished since is not created anew.
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True)) as conn:
            tables = {
                name
                for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            if not {RECORDS, "chats", "answers"} <= tables:
                raise CopyRefusedError(f"{path} is not a quizbot database; nothing was changed")
            (version,) = conn.execute(f"SELECT max(version) FROM {RECORDS}").fetchone()
    except sqlite3.DatabaseError as error:
        raise CopyRefusedError(
            f"{path} is not a quizbot database ({error}); nothing was changed"
        ) from error
    if not isinstance(version, int):
        raise CopyRefusedError(f"{path} is not a quizbot database; nothing was changed")
    return version


def source_in_use(path: Path) -> bool:
    """Whether a quizbot process holds the file's lock (storage.sqlite.lock), without
    creating the lock file."""
    try:
        fd = os.open(path.with_name(path.name + ".lock"), os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # drops our lock too
    return False


@contextmanager
def snapshot(path: Path) -> Iterator[sqlite3.Connection]:
    """A read transaction on the file, begun at once: every read through it sees the file as
    it was at this moment, whatever a running bot writes meanwhile."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        try:
            conn.execute("PRAGMA query_only = ON")
            conn.execute("BEGIN")
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()  # the snapshot starts
        except sqlite3.Error as error:
            raise CopyFailedError(f"cannot read {path}: {error}") from error
        yield conn
    finally:
        conn.close()


def check_source_tables(source: sqlite3.Connection, tables: list[Table]) -> None:
    """The file must have every table and column the target has, and no table it has not."""
    found = {
        str(name)
        for (name,) in source.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    }
    extra = found - {t.name for t in tables} - {RECORDS, *RUNTIME_TABLES}
    if extra:
        raise CopyFailedError(f"the file has tables PostgreSQL lacks: {', '.join(sorted(extra))}")
    for table in tables:
        have = {str(row[1]) for row in source.execute(f"PRAGMA table_info({quote(table.name)})")}
        missing = [column for column in table.columns if column not in have]
        if missing:
            raise CopyFailedError(f"the file's {table.name} lacks columns {', '.join(missing)}")


async def batches(cursor: sqlite3.Cursor, size: int) -> AsyncGenerator[list[Any], None]:
    """The cursor's rows, `size` at a time; the next batch is read in a thread while the
    caller works on this one."""
    fetch = partial(cursor.fetchmany, size)
    pending = asyncio.ensure_future(asyncio.to_thread(fetch))
    try:
        while batch := await pending:
            pending = asyncio.ensure_future(asyncio.to_thread(fetch))
            yield batch
    finally:
        # The thread must be done with the connection before anyone closes it.
        await asyncio.wait([pending])
        if not pending.cancelled():
            pending.exception()


def floats(batch: list[Any], positions: tuple[int, ...]) -> list[tuple[Any, ...]]:
    """The batch's rows with the values at `positions` made floats (NULLs left as they are)."""
    return [
        tuple(
            float(value) if i in positions and value is not None else value
            for i, value in enumerate(row)
        )
        for row in batch
    ]
