"""The two configurations `benchmarks.answers` compares, each opening questions and saying
afterwards which presses it stored.

* quizbot: the real bot (`bot.app.running_bot`); a member sends `/quiz` in a supergroup of its
  own for each question, and the check reads the bot's storage through its answer port
  (``get_answer``, ``answer_count``), never with SQL.
* plain: python-telegram-bot with its defaults (updates one at a time, the default HTTP pool)
  and one CallbackQueryHandler doing the same answer-and-record work: INSERT the answer
  (aiosqlite, WAL, synchronous=NORMAL, ON CONFLICT DO NOTHING), commit, answer the query. That
  stand-in for "any plain PTB bot" owns its one table, so its SQL is part of what it measures.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from html import escape
from pathlib import Path
from typing import Any, Protocol

import aiosqlite
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import Application, CallbackQueryHandler, ContextTypes

from benchmarks.answers.fake_api import FakeProcess
from content.loader import DEFAULT_CONTENT_DIR, load_decks

FIRST_CHAT_ID = -1_001_234_567_890  # question k is asked in supergroup FIRST_CHAT_ID - k
HOST_ID = 1_000  # the member who sends /quiz
OPEN_TIMEOUT_SECONDS = 10.0


@dataclass(frozen=True)
class OpenQuestion:
    chat_id: int
    message_id: int
    buttons: list[str]


class Target(Protocol):
    name: str

    async def open_question(self, chat_id: int) -> OpenQuestion: ...

    async def recorded(self, question: OpenQuestion, users: set[int]) -> tuple[int, int]:
        """(answers stored for the question, how many of ``users`` have one)."""
        ...


class QuizbotTarget:
    """The real bot: a question comes from `/quiz` in its supergroup."""

    name = "quizbot"

    def __init__(self, fake: FakeProcess, running: Any) -> None:
        self.fake = fake
        self.store = answer_store(running)

    async def open_question(self, chat_id: int) -> OpenQuestion:
        opened = await self.fake.call("open", chat_id, HOST_ID, "/quiz", OPEN_TIMEOUT_SECONDS)
        if opened is None:
            raise RuntimeError("the bot did not answer /quiz in the group with a question")
        message_id, buttons = opened
        return OpenQuestion(chat_id, message_id, buttons)

    async def recorded(self, question: OpenQuestion, users: set[int]) -> tuple[int, int]:
        ask_id = int(question.buttons[0].split(":")[1])  # answer buttons are a:<ask id>:<option>
        rows = await self.store.answer_count(ask_id)
        found = sum([await self.store.get_answer(ask_id, user) is not None for user in users])
        return rows, found


def answer_store(running: Any) -> Any:
    """What `running_bot` offers for reading answers: `RunningBot.store` (the storage ports);
    on builds before the ports (8db3487), the same two calls on `services.quiz.repo`."""
    store = getattr(running, "store", None)
    return store if store is not None else running.services.quiz.repo


PLAIN_SCHEMA = """
CREATE TABLE IF NOT EXISTS answers (
    id INTEGER PRIMARY KEY,
    question_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    position INTEGER NOT NULL,
    correct INTEGER NOT NULL,
    answered_at INTEGER NOT NULL,
    UNIQUE (question_id, user_id)
)
"""


class PlainBot:
    """python-telegram-bot with its defaults and one handler: record the answer, answer."""

    name = "plain"

    def __init__(self, fake: FakeProcess, database: Path) -> None:
        self.fake = fake
        self.database = database
        self.app = Application.builder().token(fake.token).base_url(f"{fake.url}/bot").build()
        self.app.add_handler(CallbackQueryHandler(self.on_press))
        self.db: aiosqlite.Connection | None = None
        self._texts = _question_texts()
        self._asked = 0

    async def on_press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None or query.data is None or self.db is None:
            return
        _, question_id, position = query.data.split(":")
        correct = position == "0"
        await self.db.execute(
            "INSERT INTO answers (question_id, user_id, position, correct, answered_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (question_id, user_id) DO NOTHING",
            (int(question_id), query.from_user.id, int(position), int(correct), _now_ms()),
        )
        await self.db.commit()
        await query.answer("✅ Correct" if correct else "❌ Not quite — it was A", show_alert=True)

    async def open_question(self, chat_id: int) -> OpenQuestion:
        self._asked += 1
        buttons = [f"p:{self._asked}:{p}" for p in range(4)]
        row = [
            InlineKeyboardButton("ABCD"[p], callback_data=data) for p, data in enumerate(buttons)
        ]
        text = self._texts[self._asked % len(self._texts)]
        message = await self.app.bot.send_message(
            chat_id, text, reply_markup=InlineKeyboardMarkup([row])
        )
        return OpenQuestion(chat_id, message.message_id, buttons)

    async def recorded(self, question: OpenQuestion, users: set[int]) -> tuple[int, int]:
        assert self.db is not None
        question_id = int(question.buttons[0].split(":")[1])
        async with self.db.execute(
            "SELECT user_id FROM answers WHERE question_id = ?", (question_id,)
        ) as cursor:
            stored = [int(row[0]) for row in await cursor.fetchall()]
        return len(stored), len(users.intersection(stored))

    @asynccontextmanager
    async def running(self) -> AsyncIterator[PlainBot]:
        async with aiosqlite.connect(self.database) as db:
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA synchronous = NORMAL")
            await db.execute(PLAIN_SCHEMA)
            await db.commit()
            self.db = db
            async with self.app:
                assert self.app.updater is not None
                await self.app.updater.start_polling(allowed_updates=Update.ALL_TYPES)
                await self.app.start()
                try:
                    yield self
                finally:
                    await self.app.updater.stop()
                    await self.app.stop()
            self.db = None


def _now_ms() -> int:
    return int(datetime.now(UTC).timestamp() * 1000)


def _question_texts() -> list[str]:
    """The deck's questions laid out like quizbot's (so updates carry similar payloads)."""
    texts = []
    for deck in load_decks(DEFAULT_CONTENT_DIR).values():
        for question in deck.questions:
            options = "\n".join(
                f"<b>{'ABCDEFGH'[i]})</b> {escape(option)}"
                for i, option in enumerate(question.options)
            )
            texts.append(
                f"❓ <b>{escape(deck.title)}</b> · <i>{escape(question.topic)}</i>\n\n"
                f"<b>{escape(question.text)}</b>\n\n{options}"
            )
    return texts
