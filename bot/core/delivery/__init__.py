"""Delivery: the one outbox (outbox.py), what a kind of owed message is (kinds.py), and the
owed messages whose text is known when they are owed: notices and replies (messages.py)."""

from __future__ import annotations

from bot.core.delivery.kinds import OwedKind as OwedKind
from bot.core.delivery.kinds import Shown as Shown
from bot.core.delivery.messages import NOTICE as NOTICE
from bot.core.delivery.messages import REPLY as REPLY
from bot.core.delivery.messages import Notice as Notice
from bot.core.delivery.messages import Replies as Replies
from bot.core.delivery.messages import Reply as Reply
from bot.core.delivery.messages import notice as notice
from bot.core.delivery.outbox import BACKOFF_SECONDS as BACKOFF_SECONDS
from bot.core.delivery.outbox import Outbox as Outbox
from bot.core.delivery.outbox import UnknownKindError as UnknownKindError
