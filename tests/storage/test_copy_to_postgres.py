"""Copying a SQLite database into PostgreSQL (storage/copy/, `python -m bot copy-to-postgres`):
every row and id kept, the boards ranked alike, the PostgreSQL store working on after it; a
refusal changes nothing."""

from __future__ import annotations

import asyncio
import hashlib
import shutil
import sqlite3
import sys
from contextlib import closing
from datetime import date, timedelta
from functools import partial
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import asyncpg
import pytest

from bot.cli.copy import redacted
from bot.core.memory.scheduling import Memory
from bot.core.model import (
    AskOrigin,
    ChatKind,
    ChatRef,
    ExamDraft,
    ExamEnd,
    ExamItemDraft,
    LearnSource,
    NewEffect,
    NewReport,
    PeriodKind,
    Player,
    ReportReason,
    RoundKind,
    UpdateMark,
)
from bot.core.rules.periods import period_keys, period_start
from storage.copy import (
    BOARD_ORDER,
    CopyFailedError,
    CopyRefusedError,
    copy_sqlite_to_postgres,
)
from storage.copy import run as copying
from storage.migrations import SchemaTooNewError
from storage.postgres.store import PostgresStore
from storage.sql.boards import TOP
from storage.sql.rows import from_ms
from storage.sql.store import SqlStore
from storage.sqlite import SqliteStore
from storage.sqlite.db import SqliteDatabase, bundled_migrations
from storage.sqlite.lock import ProcessLock
from tests.storage.chat_history import history
from tests.storage.helpers import ALICE, BOB, UTC_ZONE, Boards, Raw, ask_in, draft, utc

BERLIN = ZoneInfo("Europe/Berlin")
GROUP = ChatRef(-100777, ChatKind.SUPERGROUP, "Study")
OTHER = ChatRef(-100888, ChatKind.SUPERGROUP, "Second")
PRIVATE = ChatRef(ALICE.id, ChatKind.PRIVATE)
REPORTS = ChatRef(-100999, ChatKind.SUPERGROUP, "Reports")
START = utc(2026, 9, 20, 6)
MEMORY = Memory()
P0 = Player(10, "P0")  # one of random_history's players
# The tables the copy fills (schema_migrations and the runtime state are left out).
COPIED = (
    "chats",
    "users",
    "rounds",
    "asks",
    "answers",
    "period_scores",
    "learning_log",
    "cards",
    "daily_schedules",
    "daily_pushes",
    "reports",
    "exams",
    "exam_questions",
    "effects",
    "handled_updates",
)


async def private_answer(
    store: SqlStore, question_id: str, correct: bool, at_days: int, round_id: int | None = None
) -> None:
    """Alice answers in private (a review round's question if `round_id`); a miss makes a card."""
    at = START + timedelta(days=at_days)
    origin = AskOrigin.QUIZ if round_id is None else AskOrigin.ROUND
    ask = await ask_in(
        store, PRIVATE, draft(PRIVATE.id, at, question_id, origin=origin, round_id=round_id)
    )
    review = partial(
        MEMORY.review,
        user_id=ALICE.id,
        deck_id=ask.deck_id,
        question_id=question_id,
        correct=correct,
        now=at,
    )
    position = ask.right_position if correct else (ask.right_position + 1) % 4
    periods = period_keys(at, UTC_ZONE)
    await store.record_answer(ask, ALICE, position, correct, at, periods=periods, review=review)


async def fill(store: SqlStore, path: Path) -> None:
    """Something in every table: two groups answering over three months (week, month and
    all-time boards differ), rounds, a schedule with its pushes, effects, private answers with
    cards and a review round, a report and a submitted exam."""
    await Boards(store, Raw("sqlite", str(path))).random_history(GROUP.id, BERLIN, seed=3)
    await history(store, OTHER, BERLIN, seed=5, days=(date(2026, 12, 1), date(2026, 12, 2)))
    for day, correct in enumerate((False, True, False)):
        await private_answer(store, f"p{day}", correct, day * 9)
    async with store.transaction() as writes:
        review = await writes.start_round(
            PRIVATE.id, None, ALICE.id, 1, START, kind=RoundKind.REVIEW
        )
    assert review is not None
    await private_answer(store, "p0", True, 30, round_id=review.id)
    ask = await ask_in(store, PRIVATE, draft(PRIVATE.id, START, "reported"))
    async with store.transaction() as writes:
        report = await writes.create_report(
            NewReport(
                ALICE.id,
                ask.id,
                "deck",
                "reported",
                "0123456789ab",
                (2, 0, 3, 1),
                2,
                ReportReason.UNCLEAR,
                START,
                START + timedelta(minutes=10),
            )
        )
        assert report is not None
        await writes.ensure_chat(REPORTS, START)
        await writes.enqueue(NewEffect(REPORTS.id, "report", report_id=report.id), START)
    items = tuple(ExamItemDraft(f"q{i}", "t", (2, 0, 1, 3), "abc") for i in range(3))
    async with store.transaction() as writes:
        await writes.upsert_chat(ChatRef(BOB.id, ChatKind.PRIVATE), START)
        exam = await writes.create_exam(
            ExamDraft(BOB.id, BOB.id, "deck", 70, START, START + timedelta(minutes=5), items)
        )
    assert exam is not None
    assert await store.answer_exam(exam.id, 0, 1, START)
    async with store.transaction() as writes:
        assert await writes.submit_exam(exam.id, ExamEnd.USER, START)
        await writes.log_learning(BOB.id, "deck", "q0", True, START, 1500, LearnSource.EXAM)
        await writes.enqueue(NewEffect(BOB.id, "exam_result", exam_id=exam.id), START)
    assert await store.record_handled(UpdateMark(4242, START))


async def build(path: Path) -> None:
    store = await SqliteStore.open(path)
    try:
        await fill(store, path)
    finally:
        await store.close()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The filled SQLite database, written once."""
    path = tmp_path_factory.mktemp("copy") / "quiz.sqlite3"
    asyncio.run(build(path))
    return path


@pytest.fixture
def source(built: Path, tmp_path: Path) -> Path:
    """A copy of the filled database that the test may change."""
    path = tmp_path / "quiz.sqlite3"
    shutil.copyfile(built, path)
    return path


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


async def pg_columns(conn: asyncpg.Connection, table: str) -> list[str]:
    found = await conn.fetch(
        "SELECT column_name FROM information_schema.columns WHERE table_name = $1 "
        "AND table_schema = current_schema() ORDER BY ordinal_position",
        table,
    )
    return [str(row[0]) for row in found]


async def contents(path: Path, url: str) -> tuple[dict[str, list[tuple[object, ...]]], ...]:
    """Every row of every copied table, on each side, sorted (PostgreSQL's column order)."""
    mine, theirs = {}, {}
    conn = await asyncpg.connect(url)
    try:
        with closing(sqlite3.connect(path)) as db:
            for table in COPIED:
                columns = ", ".join(await pg_columns(conn, table))
                query = f"SELECT {columns} FROM {table}"
                mine[table] = sorted((tuple(r) for r in db.execute(query)), key=repr)
                theirs[table] = sorted((tuple(r) for r in await conn.fetch(query)), key=repr)
    finally:
        await conn.close()
    return mine, theirs


async def boards_of(store: SqlStore, keys: list[tuple[object, ...]]) -> list[object]:
    """Each board as the store ranks it (top 1000), with each player's standing on it."""
    found: list[object] = []
    for chat_id, period, start in keys:
        assert isinstance(chat_id, int)
        assert isinstance(start, int)
        kind, begins = PeriodKind(period), from_ms(start)
        top = await store.top(chat_id, kind, begins, 1000)
        found.append(top)
        for row in top:
            found.append(await store.standing(chat_id, kind, begins, row.player.id))
    return found


async def test_the_copy_keeps_every_row_and_id_and_ranks_every_board_alike(
    source: Path, pg_url: str
) -> None:
    """Every table is copied row for row (ids included), in several batches; the report counts
    them and has checked the boards; both stores rank every board and standing the same."""
    report = await copy_sqlite_to_postgres(source, pg_url, batch_rows=7)
    assert report.ok, report.differences
    assert report.migrated_from is None
    assert not report.source_in_use
    assert [t.name for t in report.tables] == list(COPIED)
    assert report.not_copied == (
        "schema_migrations",
        "replicas",
        "chat_claims",
        "command_allowance",
    )
    mine, theirs = await contents(source, pg_url)
    assert theirs == mine
    assert {t.name: t.rows for t in report.tables} == {t: len(rows) for t, rows in mine.items()}
    assert all(mine[table] for table in COPIED), "the fixture fills every table"
    assert {source for *_, source in mine["learning_log"]} == {"quiz", "review", "exam"}
    with closing(sqlite3.connect(source)) as db:
        keys = db.execute(
            "SELECT DISTINCT chat_id, period, period_start FROM period_scores ORDER BY 1, 2, 3"
        ).fetchall()
    assert report.boards == len(keys)
    assert {period for _, period, _ in keys} == {"week", "month", "all"}
    sqlite_store = await SqliteStore.open(source)
    pg_store = await PostgresStore.open(pg_url, pool_size=2)
    try:
        assert await boards_of(pg_store, keys) == await boards_of(sqlite_store, keys)
    finally:
        await sqlite_store.close()
        await pg_store.close()


async def exact_schema(url: str) -> dict[str, list[tuple[object, ...]]]:
    """Columns, constraints, indexes and triggers (with whether they are enabled), as
    PostgreSQL itself prints their definitions."""
    queries = {
        "columns": "SELECT table_name, ordinal_position, column_name, data_type, is_nullable, "
        "column_default, is_identity FROM information_schema.columns "
        "WHERE table_schema = 'public' ORDER BY 1, 2",
        "constraints": "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) "
        "FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2",
        "indexes": "SELECT indexrelid::regclass::text, pg_get_indexdef(indexrelid) FROM pg_index "
        "WHERE indrelid::regclass::text NOT LIKE 'pg_%' ORDER BY 1",
        "triggers": "SELECT tgrelid::regclass::text, tgname, tgenabled::text, "
        "pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1, 2",
    }
    conn = await asyncpg.connect(url)
    try:
        return {name: [tuple(r) for r in await conn.fetch(q)] for name, q in queries.items()}
    finally:
        await conn.close()


async def test_the_copy_leaves_the_schema_exactly_as_the_migrations_make_it(
    source: Path, pg_url: str, pg_migrated_url: str
) -> None:
    """The keys and indexes dropped for the copy come back as they were, and the triggers
    are enabled again."""
    assert (await copy_sqlite_to_postgres(source, pg_url)).ok
    copied = await exact_schema(pg_url)
    assert copied == await exact_schema(pg_migrated_url)
    assert {enabled for _, _, enabled, _ in copied["triggers"]} == {"O"}
    assert len(copied["triggers"]) == 2


async def test_the_postgres_store_works_on_after_the_copy(source: Path, pg_url: str) -> None:
    """A new ask gets the next id after the copied ones; a new answer is scored on the boards
    and logged by the re-enabled triggers exactly once."""
    assert (await copy_sqlite_to_postgres(source, pg_url)).ok
    raw = Raw("postgres", pg_url)
    store = await PostgresStore.open(pg_url, pool_size=2)
    try:
        [(last_ask, last_answer)] = await raw.peek(
            "SELECT (SELECT max(id) FROM asks), (SELECT max(id) FROM answers)"
        )
        scores = (
            "SELECT period, correct, answered FROM period_scores WHERE chat_id = ? AND user_id = ?"
        )
        before = {p: (c, n) for p, c, n in await raw.peek(scores, (GROUP.id, P0.id)) if p == "all"}
        logged = await raw.count("learning_log")
        at = utc(2027, 3, 1, 12)  # a week and a month nobody has answered in yet
        ask = await ask_in(store, GROUP, draft(GROUP.id, at, "after"))
        assert ask.id == last_ask + 1
        answer = await store.record_answer(
            ask, P0, ask.right_position, True, at, periods=period_keys(at, BERLIN)
        )
        assert answer is not None
        assert await raw.peek("SELECT max(id) FROM answers") == [(last_answer + 1,)]
        after = {(p, c, n) for p, c, n in await raw.peek(scores, (GROUP.id, P0.id))}
        correct, answered = before["all"]
        assert ("all", correct + 1, answered + 1) in after
        assert {("week", 1, 1), ("month", 1, 1)} <= after
        assert await raw.count("learning_log") == logged + 1
        week = await store.top(
            GROUP.id, PeriodKind.WEEK, period_start(PeriodKind.WEEK, at, BERLIN), 10
        )
        assert [row.player.id for row in week] == [P0.id]
    finally:
        await store.close()
        await raw.close()


async def test_a_file_in_use_is_copied_as_of_its_snapshot(
    source: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot writing to the file during the copy (here: an answer stored between two tables)
    neither tears the copy nor fails its check: it is the file as the copy began."""
    copy_table = copying._copy_table
    written: list[int] = []

    async def writing_meanwhile(
        conn: asyncpg.Connection, snapshot: sqlite3.Connection, table: Any, batch_rows: int
    ) -> None:
        await copy_table(conn, snapshot, table, batch_rows)
        if table.name == "asks":
            with closing(sqlite3.connect(source)) as db, db:
                db.execute("INSERT INTO users (id, first_name, updated_at) VALUES (77, 'Late', 0)")
                db.execute(
                    "INSERT INTO answers (ask_id, user_id, chat_id, position, correct, "
                    "answered_at, week_start, month_start) "
                    "SELECT id, 77, chat_id, 1, 1, asked_at, 0, 0 FROM asks WHERE chat_id = ? "
                    "LIMIT 1",
                    (GROUP.id,),
                )
                written.append(db.execute("SELECT count(*) FROM answers").fetchone()[0])

    monkeypatch.setattr(copying, "_copy_table", writing_meanwhile)
    lock = ProcessLock(source)
    lock.acquire()
    try:
        report = await copy_sqlite_to_postgres(source, pg_url)
    finally:
        lock.release()
    assert report.ok, report.differences
    assert report.source_in_use
    [copied] = [t.rows for t in report.tables if t.name == "answers"]
    assert written == [copied + 1]
    raw = Raw("postgres", pg_url)
    try:
        assert await raw.count("answers") == copied
        assert await raw.count("users", "id = 77") == 0
    finally:
        await raw.close()


async def test_a_copy_that_differs_names_the_tables_and_boards(
    source: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A check that finds a row missing or a score changed reports them, by table and board."""
    copy_table = copying._copy_table

    async def tampering(
        conn: asyncpg.Connection, snapshot: sqlite3.Connection, table: Any, batch_rows: int
    ) -> None:
        await copy_table(conn, snapshot, table, batch_rows)
        if table.name == "cards":
            await conn.execute("DELETE FROM cards WHERE ctid = (SELECT min(ctid) FROM cards)")
        if table.name == "period_scores":
            await conn.execute(
                "UPDATE period_scores SET correct = correct + 100 "
                "WHERE chat_id = $1 AND period = 'all' AND user_id = $2",
                GROUP.id,
                P0.id,
            )

    monkeypatch.setattr(copying, "_copy_table", tampering)
    report = await copy_sqlite_to_postgres(source, pg_url)
    assert not report.ok
    [cards, board] = report.differences
    assert cards.startswith("cards: ")
    assert cards.endswith(" in PostgreSQL")
    assert board.startswith(f"chat {GROUP.id} all-time board, place 1: ")


async def test_a_row_pointing_at_nothing_fails_the_copy_and_leaves_the_target_as_it_was(
    source: Path, pg_url: str
) -> None:
    """The foreign keys are checked on the copied rows: an answer to no ask (possible in a
    file written with its keys off) fails the copy, and the target is left empty, no schema."""
    with closing(sqlite3.connect(source)) as conn, conn:
        conn.execute(
            "INSERT INTO answers (ask_id, user_id, chat_id, position, correct, answered_at) "
            "SELECT 999999, user_id, chat_id, 0, 1, 0 FROM answers LIMIT 1"
        )
    with pytest.raises(CopyFailedError, match=r"left as it was: .*answers_ask_id_fkey"):
        await copy_sqlite_to_postgres(source, pg_url)
    raw = Raw("postgres", pg_url)
    try:
        assert await raw.count("pg_tables", "schemaname = 'public'") == 0
    finally:
        await raw.close()


async def test_an_older_file_is_migrated_first_and_a_migrated_empty_target_is_fine(
    tmp_path: Path, pg_migrated_url: str
) -> None:
    """A file at schema version 5 is brought to the current version, then copied into a
    database that holds the empty schema already."""
    path = tmp_path / "old.sqlite3"
    db = await SqliteDatabase.open(path, bundled_migrations()[:5])
    await db.close()
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("INSERT INTO chats (id, kind, created_at) VALUES (-5, 'group', 0)")
        conn.execute("INSERT INTO users (id, first_name, updated_at) VALUES (1, 'Alice', 0)")
        conn.execute(
            "INSERT INTO asks (id, chat_id, deck_id, question_id, pass_no, option_order, "
            "asked_at) VALUES (40, -5, 'deck', 'q1', 1, '0,1,2,3', 1000)"
        )
        conn.execute(
            "INSERT INTO answers (ask_id, user_id, chat_id, position, correct, answered_at) "
            "VALUES (40, 1, -5, 0, 1, 2000)"
        )
    report = await copy_sqlite_to_postgres(path, pg_migrated_url)
    assert report.ok, report.differences
    assert (report.migrated_from, report.schema_version) == (5, bundled_migrations()[-1].version)
    rows = {t.name: t.rows for t in report.tables}
    assert (rows["asks"], rows["answers"], rows["period_scores"]) == (1, 1, 3)
    with closing(sqlite3.connect(path)) as conn:
        assert conn.execute("SELECT max(version) FROM schema_migrations").fetchone() == (
            report.schema_version,
        )


async def test_a_target_with_any_row_is_refused_and_nothing_changes(
    source: Path, pg_migrated_url: str
) -> None:
    """One chat in the target is enough to refuse; the target and the file stay as they were."""
    raw = Raw("postgres", pg_migrated_url)
    try:
        await raw.execute("INSERT INTO chats (id, kind, created_at) VALUES (1, 'private', 0)")
        before = digest(source)
        with pytest.raises(CopyRefusedError, match=r"not empty \(rows in chats\)"):
            await copy_sqlite_to_postgres(source, pg_migrated_url)
        assert digest(source) == before
        assert await raw.peek("SELECT id FROM chats") == [(1,)]
        assert await raw.count("answers") == 0
    finally:
        await raw.close()


async def test_a_file_of_a_newer_quizbot_is_refused_and_nothing_changes(
    source: Path, pg_url: str
) -> None:
    """A file at a schema version this quizbot does not know is refused before the target is
    touched: it keeps no table."""
    with closing(sqlite3.connect(source)) as conn, conn:
        conn.execute("INSERT INTO schema_migrations VALUES (99, 'future', 0)")
    before = digest(source)
    with pytest.raises(SchemaTooNewError, match="schema version 99"):
        await copy_sqlite_to_postgres(source, pg_url)
    assert digest(source) == before
    raw = Raw("postgres", pg_url)
    try:
        assert await raw.count("pg_tables", "schemaname = 'public'") == 0
    finally:
        await raw.close()


@pytest.mark.parametrize(
    ("kind", "error"),
    [
        ("mysql url", "must be a PostgreSQL URL"),
        ("missing file", "no such file"),
        ("text file", "not a quizbot database"),
        ("other sqlite file", "not a quizbot database"),
    ],
)
async def test_what_is_not_a_quizbot_file_or_a_postgres_url_is_refused(
    kind: str, error: str, source: Path, tmp_path: Path, pg_url: str
) -> None:
    """A wrong URL or a file that is not a quizbot database is refused; nothing is written."""
    url = "mysql://localhost/quiz" if kind == "mysql url" else pg_url
    path = {"missing file": tmp_path / "nope.sqlite3", "text file": tmp_path / "a.txt"}.get(
        kind, source
    )
    if kind == "text file":
        path.write_text("not a database, but long enough to have a header of sorts" * 4)
    if kind == "other sqlite file":
        path = tmp_path / "other.sqlite3"
        with closing(sqlite3.connect(path)) as conn:
            conn.execute("CREATE TABLE notes (body TEXT)")
    before = path.read_bytes() if path.exists() else None
    with pytest.raises(CopyRefusedError, match=error):
        await copy_sqlite_to_postgres(path, url)
    assert (path.read_bytes() if path.exists() else None) == before
    raw = Raw("postgres", pg_url)
    try:
        assert await raw.count("pg_tables", "schemaname = 'public'") == 0
    finally:
        await raw.close()


def test_the_check_ranks_boards_with_the_boards_own_order() -> None:
    """The ORDER BY the copy checks the boards with is the one the leaderboards use."""
    assert f"ORDER BY {BOARD_ORDER.sqlite} LIMIT ?" in TOP.sqlite
    assert f"ORDER BY {BOARD_ORDER.postgres} LIMIT ?" in TOP.postgres


def test_a_printed_url_hides_its_password() -> None:
    """The report names the target without the password in its URL."""
    assert redacted("postgresql://quiz:s3cret@db:5432/quiz") == "postgresql://quiz:***@db:5432/quiz"
    assert redacted("postgres://db/quiz") == "postgres://db/quiz"


async def run_cli(*args: str, cwd: Path) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "copy-to-postgres",
        *args,
        cwd=cwd,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await proc.communicate()
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def test_the_command_copies_and_verifies_then_refuses_a_second_copy(
    source: Path, tmp_path: Path, pg_url: str
) -> None:
    """`python -m bot copy-to-postgres`: exit 0 with the tables and the check's verdict; then
    exit 2 into the now filled database, and for a URL that is not PostgreSQL's."""
    code, out, err = await run_cli(str(source), pg_url, cwd=tmp_path)
    assert code == 0, err
    assert "verified: counts and leaderboards match" in out
    assert any(line.split()[0] == "answers" for line in out.splitlines()[1:] if line.strip())
    assert "copied " in out
    code, out, err = await run_cli(str(source), pg_url, cwd=tmp_path)
    assert (code, out) == (2, "")
    assert "not empty" in err
    assert "nothing was changed" in err
    code, _, err = await run_cli(str(source), "sqlite:///x", cwd=tmp_path)
    assert code == 2
    assert "must be a PostgreSQL URL" in err
    code, _, err = await run_cli(str(tmp_path / "none.sqlite3"), pg_url, cwd=tmp_path)
    assert code == 2
    assert "no such file" in err
