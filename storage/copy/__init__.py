"""Copying a SQLite database into an empty PostgreSQL one, and checking the copy
(`python -m bot copy-to-postgres FILE URL`): the copy itself (run.py, whose docstring says what
it does in order), the PostgreSQL catalog work around it (catalog.py), reading the SQLite
snapshot (source.py), the tables' model (model.py) and the check after the copy (check.py)."""

from __future__ import annotations

from storage.copy.catalog import INDEX_MEMORY as INDEX_MEMORY
from storage.copy.catalog import PREFERRED_ORDER as PREFERRED_ORDER
from storage.copy.check import BOARD_ORDER as BOARD_ORDER
from storage.copy.check import DIFFERENCES_SHOWN as DIFFERENCES_SHOWN
from storage.copy.model import RECORDS as RECORDS
from storage.copy.model import RUNTIME_TABLES as RUNTIME_TABLES
from storage.copy.model import CopyError as CopyError
from storage.copy.model import CopyFailedError as CopyFailedError
from storage.copy.model import CopyRefusedError as CopyRefusedError
from storage.copy.model import TableCopy as TableCopy
from storage.copy.run import BATCH_ROWS as BATCH_ROWS
from storage.copy.run import POSTGRES_SCHEMES as POSTGRES_SCHEMES
from storage.copy.run import CopyReport as CopyReport
from storage.copy.run import copy_sqlite_to_postgres as copy_sqlite_to_postgres
