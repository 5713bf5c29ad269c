"""The storage ports: what the quiz core needs from a database, as Protocols.

Storage adapters (`storage.sql` on SQLite or PostgreSQL) implement them; the core never imports
one. Every time is an aware UTC datetime. A method that writes commits before it returns, unless
it is called on a `Writes` inside `Store.transaction()`, which commits everything at the end of
the block or nothing. The ports are grouped by concern in this package's modules; every name is
handed on here.
"""

from __future__ import annotations

from bot.core.ports.allowance import AllowanceStore as AllowanceStore
from bot.core.ports.asks import AnsweredAsks as AnsweredAsks
from bot.core.ports.asks import AskStore as AskStore
from bot.core.ports.asks import SelectionStore as SelectionStore
from bot.core.ports.boards import BoardStore as BoardStore
from bot.core.ports.boards import PeriodBounds as PeriodBounds
from bot.core.ports.chats import ChatStore as ChatStore
from bot.core.ports.daily import DailyStore as DailyStore
from bot.core.ports.daily import DailyWrites as DailyWrites
from bot.core.ports.every import CorePorts as CorePorts
from bot.core.ports.exams import ExamStore as ExamStore
from bot.core.ports.exams import ExamWrites as ExamWrites
from bot.core.ports.fits import FitCandidate as FitCandidate
from bot.core.ports.fits import MemoryFitStore as MemoryFitStore
from bot.core.ports.items import CalibrationStore as CalibrationStore
from bot.core.ports.items import FirstAnswer as FirstAnswer
from bot.core.ports.items import FirstResult as FirstResult
from bot.core.ports.items import ItemStore as ItemStore
from bot.core.ports.memory import ForgetStore as ForgetStore
from bot.core.ports.memory import MemoryStore as MemoryStore
from bot.core.ports.memory import MemoryWrites as MemoryWrites
from bot.core.ports.outbox import EffectStore as EffectStore
from bot.core.ports.outbox import OutboxWrites as OutboxWrites
from bot.core.ports.replicas import Leadership as Leadership
from bot.core.ports.replicas import ReplicaStore as ReplicaStore
from bot.core.ports.reports import ReportStore as ReportStore
from bot.core.ports.reports import ReportWrites as ReportWrites
from bot.core.ports.rounds import RoundStore as RoundStore
from bot.core.ports.updates import HandledUpdates as HandledUpdates
from bot.core.ports.writes import Store as Store
from bot.core.ports.writes import Writes as Writes
