"""Sends the messages the use cases owe, one queue per chat.

Each chat with owed messages gets its own task that works through them in order, so a chat
whose flood window is full (or whose sends keep failing) never delays another chat. Within a
chat, owed messages go before live-count edits. Failures are reported to the core, which
decides about retries; a chat's task ends when it has nothing due, and the ticker's scan (or
the next use case) starts it again.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import timedelta
from enum import Enum
from typing import Any, Protocol

from telegram import Message, ReplyParameters
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
)
from telegram.ext import ExtBot

from bot import metrics
from bot.callback_data import NextButton
from bot.core.delivery import (
    Delivery,
    Explain,
    ForwardReport,
    MarkAnswered,
    Notice,
    Outgoing,
    PostQuestion,
    RemoveButton,
    ShowExamResult,
    ShowReveal,
    ShowSummary,
)
from bot.render import group as render_group
from bot.render import questions as render
from bot.render import reports as render_reports
from bot.render import rounds as render_rounds
from bot.transport.ratelimit import RequestDropped
from bot.workers.exam_result import send_exam_result
from bot.workers.live_count import DROPPABLE, LiveCounts

log = logging.getLogger(__name__)

# On stop, sends already on the wire get this long to finish; messages still waiting for their
# chat's window stay owed and go out after the next start.
STOP_GRACE_SECONDS = 2.0
# Edits that find the message already as wanted, or gone, have nothing left to do.
_EDIT_SETTLED = ("message is not modified", "message to edit not found")


class _Outcome(Enum):
    DONE = "done"  # sent, settled or given up: the next item may go
    RETRY = "retry"  # will be tried again later: what depends on it waits too
    GONE = "gone"  # the bot can no longer write to the chat


@dataclass(frozen=True)
class _MovedTo:
    chat_id: int  # the group became this supergroup: its work moved there


def _seconds(value: int | timedelta) -> float:
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


class ChatClaims(Protocol):
    """Replicas on one database: a chat's messages are sent by the one holding its claim."""

    async def claim(self, chat_id: int) -> bool: ...

    async def release(self, chat_id: int) -> None: ...


class Sender:
    def __init__(
        self,
        delivery: Delivery,
        bot: ExtBot[Any],
        live: LiveCounts,
        claims: ChatClaims | None = None,
    ) -> None:
        self._delivery = delivery
        self._bot = bot
        self._live = live
        self._claims = claims
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._stopping = False

    def kick(self, chat_id: int) -> None:
        """Work through the chat's owed messages now (a no-op while it is being worked)."""
        if self._stopping:
            return
        if chat_id in self._tasks:
            self._again.add(chat_id)
            return
        self._tasks[chat_id] = asyncio.create_task(self._drain(chat_id), name=f"send-{chat_id}")

    async def scan(self) -> None:
        """Start every chat with due work (retries, and work left from before a restart)."""
        due = await self._delivery.due_chats()
        metrics.set_pending_sends(len(due))  # chats, not messages: the store counts no further
        for chat_id in due:
            self.kick(chat_id)
        for chat_id in self._live.due_chats():
            self.kick(chat_id)

    async def idle(self) -> None:
        """Until no chat is being worked (tests and shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def stop(self) -> None:
        self._stopping = True
        tasks = list(self._tasks.values())
        if not tasks:
            return
        _, pending = await asyncio.wait(tasks, timeout=STOP_GRACE_SECONDS)
        for task in pending:  # what is not sent stays owed for the next start
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

    async def _drain(self, chat_id: int) -> None:
        claimed = False
        try:
            while not self._stopping:
                self._again.discard(chat_id)
                if self._claims is not None:
                    claimed = await self._claims.claim(chat_id)  # taken, or renewed
                    if not claimed:
                        return  # another replica is sending this chat's messages
                items = await self._delivery.due(chat_id)
                held: set[int] = set()  # questions with a send waiting for a retry
                for item in items:
                    ask_id = item.effect.ask_id
                    if self._stopping:
                        return
                    if self._claims is not None and not await self._claims.claim(chat_id):
                        return  # the claim ran out and another replica took the chat
                    if ask_id is not None and ask_id in held:
                        continue
                    outcome = await self._perform(item)
                    if isinstance(outcome, _MovedTo):
                        self.kick(outcome.chat_id)
                        return
                    if outcome is _Outcome.GONE:
                        return
                    if outcome is _Outcome.RETRY and ask_id is not None:
                        held.add(ask_id)
                if not items and chat_id not in self._again:
                    await self._live.flush(chat_id)
                    if chat_id not in self._again:
                        return
        except Exception:
            log.exception("chat %s: sending failed; the ticker retries", chat_id)
        finally:
            self._tasks.pop(chat_id, None)
            if claimed and self._claims is not None:
                await self._release(chat_id)

    async def _release(self, chat_id: int) -> None:
        assert self._claims is not None
        try:
            await self._claims.release(chat_id)
        except Exception:  # the claim runs out by itself
            log.exception("chat %s: releasing the send claim failed", chat_id)

    async def _perform(self, item: Outgoing) -> _Outcome | _MovedTo:
        """Send one item and report to the core how it went."""
        chat_id = item.effect.chat_id
        try:
            message_id = await self._send(item)
        except RequestDropped:
            await self._delivery.delivered(item)  # cosmetic, and no room for it: skip it
        except RetryAfter as error:
            await self._delivery.transient(item, error.message, _seconds(error.retry_after))
            return _Outcome.RETRY
        except Forbidden as error:
            await self._delivery.chat_gone(chat_id, error.message)
            return _Outcome.GONE
        except ChatMigrated as error:
            await self._delivery.chat_moved(chat_id, error.new_chat_id)
            return _MovedTo(error.new_chat_id)
        except BadRequest as error:
            if isinstance(item, ShowReveal | MarkAnswered | RemoveButton) and any(
                text in error.message.lower() for text in _EDIT_SETTLED
            ):
                await self._delivery.delivered(item)
            else:
                await self._delivery.permanent(item, error.message)
        except NetworkError as error:  # 5xx, time-outs and dropped connections
            await self._delivery.transient(item, error.message)
            return _Outcome.RETRY
        except TelegramError as error:
            await self._delivery.permanent(item, error.message)
        else:
            await self._delivery.delivered(item, message_id)
        return _Outcome.DONE

    async def _send(self, item: Outgoing) -> int | None:
        effect = item.effect
        chat_id, thread_id = effect.chat_id, effect.thread_id
        sent: Message | bool
        match item:
            case PostQuestion(ask=ask, question=question, deck_title=title):
                if ask.closes_at is None:
                    text = render.question_message(question, ask, title)
                else:
                    text = render_group.open_question_message(
                        question, ask, title, item.answered, item.zone
                    )
                sent = await self._bot.send_message(
                    chat_id,
                    text,
                    message_thread_id=thread_id,
                    reply_markup=render.question_keyboard(ask),
                )
                self._live.posted(ask)
            case ShowReveal(ask=ask, question=question, deck_title=title, tally=tally):
                self._live.forget(ask.id)
                sent = await self._bot.edit_message_text(
                    render_group.reveal_message(question, ask, title, tally),
                    chat_id=chat_id,
                    message_id=ask.message_id,
                    reply_markup=render_reports.reveal_keyboard(self._bot.username, ask),
                )
            case MarkAnswered(ask=ask, question=question, deck_title=title, position=position):
                sent = await self._bot.edit_message_text(
                    render.answered_message(question, ask, position, title),
                    chat_id=chat_id,
                    message_id=ask.message_id,
                    reply_markup=None,
                )
            case Explain(ask=ask, question=question, correct=correct, summary=summary):
                next_button = None
                if effect.round_id is not None and effect.next_asked is not None:
                    next_button = NextButton(effect.round_id, effect.next_asked)
                keyboard = render_reports.explanation_keyboard(ask.id, next_button)
                reply = None
                if ask.message_id is not None:
                    reply = ReplyParameters(ask.message_id, allow_sending_without_reply=True)
                sent = await self._bot.send_message(
                    chat_id,
                    render_rounds.explanation_with_summary(
                        render.explanation_message(question, ask, correct), summary
                    ),
                    message_thread_id=thread_id,
                    reply_parameters=reply,
                    reply_markup=keyboard,
                )
            case ShowSummary(summary=summary, group=group):
                text = (
                    render_rounds.group_summary(summary)
                    if group
                    else render_rounds.private_summary(summary)
                )
                sent = await self._bot.send_message(chat_id, text, message_thread_id=thread_id)
            case Notice(text=text):
                sent = await self._bot.send_message(
                    chat_id, render.notice(text), message_thread_id=thread_id
                )
            case RemoveButton(message_id=message_id):
                # Cosmetic: a private chat's burst is kept for the next question and answer.
                sent = await self._bot.edit_message_reply_markup(
                    chat_id=chat_id,
                    message_id=message_id,
                    reply_markup=render_reports.after_next_keyboard(effect.ask_id),
                    rate_limit_args=DROPPABLE,
                )
            case ForwardReport(view=view):
                sent = await self._bot.send_message(
                    chat_id,
                    render_reports.report_message(view),
                    reply_markup=render_reports.resolve_keyboard(view.report.id),
                )
            case ShowExamResult():
                sent = await send_exam_result(self._bot, item)
        return sent.message_id if isinstance(sent, Message) else None
