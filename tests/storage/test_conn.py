"""SQLite's parameters mapped to PostgreSQL's, one text for both engines."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from storage.postgres.db import rowcount
from storage.sql.conn import postgres_text


def test_numbered_parameters_keep_their_numbers() -> None:
    """`?N` becomes `$N`, however often and in whatever order it is used."""
    sql = "SELECT 1 WHERE a = ?2 AND b = ?1 AND c = ?2"
    assert postgres_text(sql) == "SELECT 1 WHERE a = $2 AND b = $1 AND c = $2"


def test_bare_parameters_are_numbered_as_sqlite_numbers_them() -> None:
    """A bare `?` takes one more than the largest number used before it."""
    assert postgres_text("VALUES (?, ?, ?)") == "VALUES ($1, $2, $3)"
    assert postgres_text("x = ?3 AND y = ?") == "x = $3 AND y = $4"


def test_question_marks_inside_quotes_are_left_alone() -> None:
    """Text in string literals and quoted names is never taken for a parameter."""
    sql = "SELECT '?', 'it''s ?' AS \"a?b\" WHERE x = ?"
    assert postgres_text(sql) == "SELECT '?', 'it''s ?' AS \"a?b\" WHERE x = $1"


@given(st.lists(st.one_of(st.none(), st.integers(1, 12)), min_size=1, max_size=12))
def test_any_mix_of_parameters_maps_like_sqlite_binds_them(params: list[int | None]) -> None:
    """For any sequence of `?` and `?N`, each `$k` is the index SQLite would bind there."""
    sql = " , ".join("?" if n is None else f"?{n}" for n in params)
    expected, largest = [], 0
    for n in params:
        index = largest + 1 if n is None else n
        largest = max(largest, index)
        expected.append(index)
    assert [int(k) for k in re.findall(r"\$(\d+)", postgres_text(sql))] == expected


def test_command_tags_give_the_rows_changed() -> None:
    """`UPDATE 3`, `INSERT 0 1` and `DELETE 0` are read as 3, 1 and 0 rows."""
    assert [rowcount(t) for t in ("UPDATE 3", "INSERT 0 1", "DELETE 0", "CREATE TABLE")] == [
        3,
        1,
        0,
        0,
    ]
