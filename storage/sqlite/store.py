"""`SqliteStore`: every storage port of the quiz core, on one SQLite file."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from storage.sqlite.asks import AskQueries
from storage.sqlite.boards import BoardQueries
from storage.sqlite.chats import ChatQueries
from storage.sqlite.daily import DailyQueries
from storage.sqlite.db import Database
from storage.sqlite.effects import EffectQueries
from storage.sqlite.exams import ExamQueries
from storage.sqlite.forget import ForgetQueries
from storage.sqlite.items import ItemQueries
from storage.sqlite.memory import MemoryQueries
from storage.sqlite.reports import ReportQueries
from storage.sqlite.rounds import RoundQueries

if TYPE_CHECKING:
    from bot.core import ports
    from storage.sqlite.writes import SqliteWrites


class SqliteStore(
    ChatQueries,
    AskQueries,
    RoundQueries,
    BoardQueries,
    DailyQueries,
    EffectQueries,
    ItemQueries,
    ReportQueries,
    MemoryQueries,
    ForgetQueries,
    ExamQueries,
):
    """One aiosqlite connection shared by every coroutine; writes are serialised by a lock.

    A method that writes commits before it returns; `transaction()` yields the `Writes` of one
    transaction. Reads see what is committed (and, on this connection, a transaction that is
    open at that moment).
    """

    @classmethod
    async def open(cls, path: Path | str) -> SqliteStore:
        """Open (creating it and its folder if needed) the database at `path` and bring its
        schema up to date; `SchemaTooNewError` if a newer quizbot wrote it (left unchanged)."""
        return cls(await Database.open(Path(path)))

    async def close(self) -> None:
        await self.flush_cards()
        await self._db.close()


if TYPE_CHECKING:
    # mypy checks here that the adapter implements every port.
    def _implements(store: SqliteStore, writes: SqliteWrites) -> None:
        _store: ports.Store = store
        _chats: ports.ChatStore = store
        _asks: ports.AskStore = store
        _rounds: ports.RoundStore = store
        _boards: ports.BoardStore = store
        _daily: ports.DailyStore = store
        _effects: ports.EffectStore = store
        _items: ports.ItemStore = store
        _reports: ports.ReportStore = store
        _memory: ports.MemoryStore = store
        _forget: ports.ForgetStore = store
        _exams: ports.ExamStore = store
        _writes: ports.Writes = writes
