"""The SQLite adapter of the quiz core's storage ports: `SqliteStore.open(path)`."""

from storage.migrations import SchemaTooNewError
from storage.sqlite.store import SqliteStore

__all__ = ["SchemaTooNewError", "SqliteStore"]
