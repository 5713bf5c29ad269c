"""What a failure of the database looks like, whichever engine it is."""

from __future__ import annotations

import sqlite3

try:
    import asyncpg
except ImportError:  # the `postgres` extra is not installed: SQLite only
    _POSTGRES_ERRORS: tuple[type[BaseException], ...] = ()
else:
    _POSTGRES_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError)

# A webhook update whose handling raised one of these is answered 500, so Telegram delivers
# it again (the database may be back by then).
STORAGE_ERRORS: tuple[type[BaseException], ...] = (
    OSError,
    TimeoutError,
    sqlite3.Error,
    *_POSTGRES_ERRORS,
)
