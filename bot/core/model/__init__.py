"""The quiz core's model: the types the use cases, the ports and the storage adapters share.

Grouped by kind in the modules of this package; every name is handed on here, so
`from bot.core.model import Ask` works whatever module defines it.
"""

from __future__ import annotations

from bot.core.model.asks import LETTERS as LETTERS
from bot.core.model.asks import Answer as Answer
from bot.core.model.asks import Ask as Ask
from bot.core.model.asks import AskDraft as AskDraft
from bot.core.model.asks import AskOrigin as AskOrigin
from bot.core.model.asks import PassState as PassState
from bot.core.model.asks import Tally as Tally
from bot.core.model.asks import UserStats as UserStats
from bot.core.model.asks import as_mask as as_mask
from bot.core.model.asks import from_mask as from_mask
from bot.core.model.asks import letter as letter
from bot.core.model.asks import letters as letters
from bot.core.model.boards import EPOCH as EPOCH
from bot.core.model.boards import BoardRow as BoardRow
from bot.core.model.boards import BoardStanding as BoardStanding
from bot.core.model.boards import PeriodKeys as PeriodKeys
from bot.core.model.boards import PeriodKind as PeriodKind
from bot.core.model.chats import ChatKind as ChatKind
from bot.core.model.chats import ChatRef as ChatRef
from bot.core.model.chats import ChatSettings as ChatSettings
from bot.core.model.chats import Player as Player
from bot.core.model.chats import full_name as full_name
from bot.core.model.daily import Push as Push
from bot.core.model.daily import PushStatus as PushStatus
from bot.core.model.daily import Schedule as Schedule
from bot.core.model.daily import SlotDecision as SlotDecision
from bot.core.model.exams import Exam as Exam
from bot.core.model.exams import ExamDraft as ExamDraft
from bot.core.model.exams import ExamEnd as ExamEnd
from bot.core.model.exams import ExamItem as ExamItem
from bot.core.model.exams import ExamItemDraft as ExamItemDraft
from bot.core.model.items import ItemParameters as ItemParameters
from bot.core.model.memory import LEECH_LAPSES as LEECH_LAPSES
from bot.core.model.memory import Card as Card
from bot.core.model.memory import Learned as Learned
from bot.core.model.memory import LearnSource as LearnSource
from bot.core.model.memory import MemoryFit as MemoryFit
from bot.core.model.memory import MemoryModel as MemoryModel
from bot.core.model.outbox import Effect as Effect
from bot.core.model.outbox import NewEffect as NewEffect
from bot.core.model.outbox import Payload as Payload
from bot.core.model.reports import NewReport as NewReport
from bot.core.model.reports import Report as Report
from bot.core.model.reports import ReportReason as ReportReason
from bot.core.model.reports import ReportStatus as ReportStatus
from bot.core.model.rounds import Round as Round
from bot.core.model.rounds import RoundEnd as RoundEnd
from bot.core.model.rounds import RoundKind as RoundKind
from bot.core.model.rounds import RoundQuestion as RoundQuestion
from bot.core.model.rounds import RoundScore as RoundScore
from bot.core.model.updates import UpdateAlreadyHandledError as UpdateAlreadyHandledError
from bot.core.model.updates import UpdateMark as UpdateMark
