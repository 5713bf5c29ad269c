"""Every port on one object: what `build_services` takes (`storage.sql.SqlStore` is one)."""

from __future__ import annotations

from typing import Protocol

from bot.core.ports.allowance import AllowanceStore
from bot.core.ports.asks import AnsweredAsks, AskStore, SelectionStore
from bot.core.ports.boards import BoardStore
from bot.core.ports.chats import ChatStore
from bot.core.ports.daily import DailyStore
from bot.core.ports.exams import ExamStore
from bot.core.ports.fits import MemoryFitStore
from bot.core.ports.items import CalibrationStore, ItemStore
from bot.core.ports.memory import ForgetStore, MemoryStore
from bot.core.ports.outbox import EffectStore
from bot.core.ports.replicas import ReplicaStore
from bot.core.ports.reports import ReportStore
from bot.core.ports.rounds import RoundStore
from bot.core.ports.updates import HandledUpdates
from bot.core.ports.writes import Store


class CorePorts(
    Store,
    ChatStore,
    AskStore,
    AnsweredAsks,
    SelectionStore,
    RoundStore,
    BoardStore,
    DailyStore,
    EffectStore,
    ReportStore,
    MemoryStore,
    ForgetStore,
    MemoryFitStore,
    ExamStore,
    ItemStore,
    CalibrationStore,
    ReplicaStore,
    HandledUpdates,
    AllowanceStore,
    Protocol,
):
    """Every port of the core."""
