"""The schema of a SQLite file and of a PostgreSQL database, in one comparable shape.

`{"tables": {name: {"columns", "key", "uniques", "checks", "fks"}}, "indexes": {...},
"triggers": {...}}`: per table its columns in order (name, coarse type family: integer, text
or real, NOT NULL), primary key, UNIQUE constraints, CHECK constraints (the sorted columns each
one names) and foreign keys with their actions; the indexes made by CREATE INDEX (table,
columns with direction, uniqueness, normalised predicate); the triggers (table, timing, event).

Indexes that only back a PRIMARY KEY or UNIQUE constraint are left out on both sides (SQLite
names them sqlite_autoindex_*, PostgreSQL <table>_pkey / <table>_<columns>_key): they appear as
the constraints they back. sqlite_sequence and the other sqlite_* internals are left out.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

import asyncpg

Schema = dict[str, Any]
_ACTIONS = {"a": "NO ACTION", "r": "RESTRICT", "c": "CASCADE", "n": "SET NULL", "d": "SET DEFAULT"}


def _family(declared: str) -> str:
    """SQLite's affinity rules, which also sort PostgreSQL's type names."""
    name = declared.upper()
    if "INT" in name:
        return "integer"
    if any(part in name for part in ("CHAR", "CLOB", "TEXT")):
        return "text"
    if any(part in name for part in ("REAL", "FLOA", "DOUB")):
        return "real"
    return name.lower()


def _predicate(sql: str | None) -> str | None:
    """`(status = 'open'::text)` and `status = 'open'` alike: no casts, brackets or spaces."""
    return None if sql is None else re.sub(r"[\s()]|::\w+", "", sql)


def _check_columns(table_sql: str, columns: Sequence[str]) -> list[tuple[str, ...]]:
    """The columns each CHECK of a SQLite CREATE TABLE names, sorted."""
    sql = re.sub(r"--[^\n]*", "", table_sql)
    found = []
    for match in re.finditer(r"\bCHECK\s*\(", sql, re.IGNORECASE):
        depth, end = 1, match.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(sql[end], 0)
            end += 1
        words = set(re.findall(r"[a-z_]\w*", re.sub(r"'[^']*'", "", sql[match.end() : end])))
        found.append(tuple(sorted(words & set(columns))))
    return sorted(found)


def sqlite_schema(path: Path) -> Schema:
    schema: Schema = {"tables": {}, "indexes": {}, "triggers": set()}
    with closing(sqlite3.connect(path)) as db:
        master = db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
        for kind, name, table, sql in master:
            if kind == "trigger":
                when = re.search(r"\b(BEFORE|AFTER|INSTEAD OF)?\s*(INSERT|UPDATE|DELETE)\b", sql)
                assert when
                schema["triggers"].add((name, table, when[1] or "BEFORE", when[2]))
            if kind != "table" or name.startswith("sqlite_"):
                continue
            info = db.execute(f"PRAGMA table_info({name})").fetchall()
            rowid_free = re.search(r"WITHOUT\s+ROWID\s*$", sql, re.IGNORECASE) is not None
            key = [row[1] for row in sorted(info, key=lambda row: row[5]) if row[5]]
            rowid_alias = len(key) == 1 and any(r[5] and r[2] == "INTEGER" for r in info)
            implied = rowid_free or rowid_alias  # key columns that cannot be NULL
            uniques = []
            for _, index, unique, origin, partial in db.execute(f"PRAGMA index_list({name})"):
                xinfo = [r for r in db.execute(f"PRAGMA index_xinfo({index})") if r[5]]
                cols = tuple((r[2], "DESC" if r[3] else "ASC") for r in xinfo)
                if origin == "u":
                    uniques.append(tuple(c for c, _ in cols))
                elif origin == "c":
                    (index_sql,) = [m[3] for m in master if m[1] == index]
                    where = re.search(r"\bWHERE\b(.*)$", index_sql, re.IGNORECASE | re.DOTALL)
                    pred = _predicate(where[1]) if where else None
                    assert bool(partial) == (pred is not None), index_sql
                    schema["indexes"][index] = (name, cols, bool(unique), pred)
            fks = {
                (r[3], r[2], r[4], r[5], r[6])
                for r in db.execute(f"PRAGMA foreign_key_list({name})")
            }
            schema["tables"][name] = {
                "columns": [(r[1], _family(r[2]), bool(r[3] or (r[5] and implied))) for r in info],
                "key": tuple(key),
                "uniques": sorted(uniques),
                "checks": _check_columns(sql, [r[1] for r in info]),
                "fks": fks,
            }
    return schema


async def pg_schema(conn: asyncpg.Connection) -> Schema:
    schema: Schema = {"tables": {}, "indexes": {}, "triggers": set()}
    rows = await conn.fetch(
        "SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod) AS type,"
        " a.attnotnull FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid"
        " WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'"
        " AND a.attnum > 0 AND NOT a.attisdropped ORDER BY c.relname, a.attnum"
    )
    for r in rows:
        table = schema["tables"].setdefault(
            r["relname"], {"columns": [], "key": (), "uniques": [], "checks": [], "fks": set()}
        )
        table["columns"].append((r["attname"], _family(r["type"]), r["attnotnull"]))
    constraints = await conn.fetch(
        "SELECT c.conrelid::regclass::text AS tbl, c.confrelid::regclass::text AS ref,"
        " c.contype::text, c.confupdtype::text, c.confdeltype::text, c.conindid,"
        " ARRAY(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(n, o) JOIN pg_attribute"
        " a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.o) AS cols,"
        " ARRAY(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY k(n, o) JOIN pg_attribute"
        " a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.o) AS refcols"
        " FROM pg_constraint c WHERE c.connamespace = current_schema()::regnamespace"
    )
    for c in constraints:
        table, cols = schema["tables"][c["tbl"]], tuple(c["cols"])
        if c["contype"] == "p":
            table["key"] = cols
        elif c["contype"] == "u":
            table["uniques"].append(cols)
        elif c["contype"] == "c":
            table["checks"].append(tuple(sorted(cols)))
        elif c["contype"] == "f":
            (col,), (refcol,) = cols, c["refcols"]
            update, delete = _ACTIONS[c["confupdtype"]], _ACTIONS[c["confdeltype"]]
            table["fks"].add((col, c["ref"], refcol, update, delete))
    for table in schema["tables"].values():
        table["uniques"].sort()
        table["checks"].sort()
    backing = {c["conindid"] for c in constraints}
    indexes = await conn.fetch(
        "SELECT i.indexrelid, x.relname AS name, t.relname AS tbl, i.indisunique,"
        " pg_get_expr(i.indpred, i.indrelid) AS pred,"
        " ARRAY(SELECT pg_get_indexdef(i.indexrelid, k, true)"
        "  || CASE WHEN pg_index_column_has_property(i.indexrelid, k, 'desc')"
        "  THEN ' DESC' ELSE ' ASC' END FROM generate_series(1, i.indnkeyatts) k) AS cols"
        " FROM pg_index i JOIN pg_class x ON x.oid = i.indexrelid"
        " JOIN pg_class t ON t.oid = i.indrelid"
        " WHERE t.relnamespace = current_schema()::regnamespace"
    )
    for i in indexes:
        if i["indexrelid"] not in backing:
            cols = tuple(tuple(col.split(" ")) for col in i["cols"])
            pred = _predicate(i["pred"])
            schema["indexes"][i["name"]] = (i["tbl"], cols, i["indisunique"], pred)
    for t in await conn.fetch(
        "SELECT trigger_name, event_object_table, action_timing, event_manipulation,"
        " action_orientation FROM information_schema.triggers"
        " WHERE trigger_schema = current_schema()"
    ):
        assert t["action_orientation"] == "ROW", "SQLite has row triggers only"
        schema["triggers"].add(tuple(t.values())[:4])
    return schema
