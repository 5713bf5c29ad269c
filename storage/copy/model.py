"""What the parts of the SQLite → PostgreSQL copy (storage/copy/) share: its errors, the
tables it copies and how it names them."""

from __future__ import annotations

from dataclasses import dataclass

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
