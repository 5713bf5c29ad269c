"""`SqlStore`: every storage port of the quiz core, on a `Database` of either engine."""

from __future__ import annotations

from typing import TYPE_CHECKING

from storage.sql.asks import AskQueries
from storage.sql.boards import BoardQueries
from storage.sql.calibration import CalibrationQueries
from storage.sql.chats import ChatQueries
from storage.sql.daily import DailyQueries
from storage.sql.effects import EffectQueries
from storage.sql.exams import ExamQueries
from storage.sql.fits import FitQueries
from storage.sql.forget import ForgetQueries
from storage.sql.items import ItemQueries
from storage.sql.memory import MemoryQueries
from storage.sql.replicas import ReplicaQueries
from storage.sql.reports import ReportQueries
from storage.sql.rounds import RoundQueries
from storage.sql.selections import SelectionQueries
from storage.sql.updates import UpdateQueries

if TYPE_CHECKING:
    from bot.core import ports
    from bot.core.ports.replicas import ReplicaStore
    from storage.sql.writes import SqlWrites


class SqlStore(
    ChatQueries,
    AskQueries,
    SelectionQueries,
    RoundQueries,
    BoardQueries,
    DailyQueries,
    EffectQueries,
    ItemQueries,
    CalibrationQueries,
    ReportQueries,
    MemoryQueries,
    ForgetQueries,
    FitQueries,
    ExamQueries,
    ReplicaQueries,
    UpdateQueries,
):
    """Every port on one `Database`. A method that writes commits before it returns;
    `transaction()` yields the `Writes` of one transaction. Reads see what is committed."""

    async def ping(self) -> bool:
        """Whether the database answers (for /readyz)."""
        return await self._db.ping()

    async def close(self) -> None:
        await self.flush_cards()
        await self._db.close()


if TYPE_CHECKING:
    # mypy checks here that the adapter implements every port.
    def _implements(store: SqlStore, writes: SqlWrites) -> None:
        _store: ports.Store = store
        _chats: ports.ChatStore = store
        _asks: ports.AskStore = store
        _selections: ports.SelectionStore = store
        _rounds: ports.RoundStore = store
        _boards: ports.BoardStore = store
        _daily: ports.DailyStore = store
        _effects: ports.EffectStore = store
        _items: ports.ItemStore = store
        _calibration: ports.CalibrationStore = store
        _reports: ports.ReportStore = store
        _memory: ports.MemoryStore = store
        _forget: ports.ForgetStore = store
        _fits: ports.MemoryFitStore = store
        _exams: ports.ExamStore = store
        _replicas: ReplicaStore = store
        _all: ports.CorePorts = store
        _writes: ports.Writes = writes
