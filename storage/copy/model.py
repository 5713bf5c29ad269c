"""What the parts of the SQLite → PostgreSQL copy (storage/copy/) share: its errors, the
tables it copies and how it names them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

RECORDS = "schema_migrations"
# Leases and heartbeats of running processes: meaningless in another database.
RUNTIME_TABLES = ("replicas", "chat_claims", "command_allowance")


class CopyError(RuntimeError):
    """The copy did not happen; the message says why."""


class CopyRefusedError(CopyError):
    """The source or the target is not fit for a copy; nothing was changed."""


class CopyFailedError(CopyError):
    """The copy was attempted and failed (connection, a row PostgreSQL refused…)."""


@dataclass(frozen=True)
class TableCopy:
    name: str
    rows: int


@dataclass(frozen=True)
class Table:
    """A table the copy fills, as the migrated PostgreSQL schema has it."""

    name: str
    columns: tuple[str, ...]
    identity: str | None
    # Positions of DOUBLE PRECISION columns (SQLite may hand over an int for a REAL).
    floats: tuple[int, ...]


def quote(identifier: str) -> str:
    """An SQL identifier, quoted for either engine."""
    return '"' + identifier.replace('"', '""') + '"'


@dataclass(frozen=True)
class CopyReport:
    """What `copy_sqlite_to_postgres` did, and what its check found."""

    source: Path
    # The file's schema version before this copy migrated it; None when it was current.
    migrated_from: int | None
    schema_version: int
    # Copied, in the order they were copied, with the rows each has in both databases.
    tables: tuple[TableCopy, ...]
    not_copied: tuple[str, ...]
    # Leaderboards compared (one per chat, period kind and period).
    boards: int
    copy_seconds: float
    verify_seconds: float
    # Empty when the copy checked out: each names a table or a board that differs.
    differences: tuple[str, ...]
    # A quizbot process had FILE open: the copy is of the moment the snapshot began.
    source_in_use: bool

    @property
    def ok(self) -> bool:
        return not self.differences

    @property
    def rows(self) -> int:
        return sum(table.rows for table in self.tables)
