"""Copying a SQLite database into an empty PostgreSQL one, and checking the copy
(`python -m bot copy-to-postgres FILE URL`): the copy itself (run.py, whose docstring says what
it does in order), the PostgreSQL catalog work around it (catalog.py), reading the SQLite
snapshot (source.py), the tables' model (model.py) and the check after the copy (check.py).

Only the model is handed on here: the other modules need asyncpg (the `postgres` extra), so a
SQLite-only install can import the errors and the report without it."""

from __future__ import annotations

from storage.copy.model import RECORDS as RECORDS
from storage.copy.model import RUNTIME_TABLES as RUNTIME_TABLES
from storage.copy.model import CopyError as CopyError
from storage.copy.model import CopyFailedError as CopyFailedError
from storage.copy.model import CopyRefusedError as CopyRefusedError
from storage.copy.model import CopyReport as CopyReport
from storage.copy.model import TableCopy as TableCopy
