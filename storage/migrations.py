"""Numbered SQL migrations, whatever the engine: loading a package's tree, refusing a newer one.

Each adapter ships `<package>/migrations/NNNN_name.sql`, numbered 1..n without gaps; its runner
applies the pending ones in order, each in one transaction together with its
`schema_migrations` record, and refuses a database whose version it does not know.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

_MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


class SchemaTooNewError(RuntimeError):
    """The database was written by a newer quizbot; refusing it keeps it intact."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations(package: str) -> list[Migration]:
    """The migrations in `<package>/migrations`, in version order, numbered 1..n without gaps."""
    found: list[Migration] = []
    for entry in resources.files(package).joinpath("migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..n without gaps, found {versions}")
    return found


def too_new_message(current: int, known: int) -> str:
    """Why a database at schema version `current` is refused by a quizbot that knows `known`."""
    return (
        f"the database has schema version {current}, but this quizbot only knows "
        f"versions up to {known}; it was written by a newer release. Upgrade quizbot "
        "or point QUIZBOT_DATABASE at another file (the database was not changed)."
    )
