"""One playground: the in-process Bot API server, the real bot against it on a SQLite file of
its own, a private chat and a group with simulated members, a clock the person moves, and the
decks the bot serves."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field, replace
from datetime import timedelta
from pathlib import Path

from pydantic import SecretStr

from bot.app import RunningBot, running_bot
from bot.config import Settings
from bot.core.model import ChatKind, ChatRef
from bot.playground.botapi import BotApiServer, FakeChat, FakeUser, RateLimits
from bot.playground.clock import MovableClock
from bot.playground.decks import DeckFolder, DeckRejected
from bot.playground.members import Members, Pace, asks_of
from content.loader import DEFAULT_CONTENT_DIR
from content.models import Deck

log = logging.getLogger(__name__)

BOT_USERNAME = "quizbot_playground_bot"
YOU = FakeUser(1001, "You", username="you")
MEMBER_NAMES = ("Ada", "Grace", "Alan", "Katherine")
GROUP = FakeChat.supergroup(-1001000000001, "Study group")
# A question the person presses gets its answer shown; the newest few are kept for the page.
PRESSES_KEPT = 20
# The server forgets all but this many calls, updates and messages of each chat (and as many
# older ones with buttons: the bot may still reveal them), every minute.
SERVER_KEEPS = 300
FORGET_EVERY_SECONDS = 60.0
# The clock moves in steps of at most this, the bot acting on what came due after each.
CLOCK_STEP = timedelta(hours=1)


@dataclass
class Press:
    """A button the person pressed, and what the bot answered (None until it has)."""

    query_id: str
    chat_id: int
    message_id: int


@dataclass
class PlaygroundState:
    """What the page shows besides the chats."""

    presses: list[Press] = field(default_factory=list)
    deck_problems: list[str] = field(default_factory=list)
    deck_loaded: str | None = None  # the id of the deck the person loaded last


class Playground:
    def __init__(self, settings: Settings, folder: Path) -> None:
        self.settings = settings
        self.folder = folder
        self.clock = MovableClock()
        self.server = BotApiServer(bot_username=BOT_USERNAME, limits=RateLimits())
        self.server.bot_user = replace(self.server.bot_user, first_name="quizbot")
        self.private = FakeChat.private(YOU)
        self.group = GROUP
        self.members = Members(
            self.server,
            GROUP,
            [FakeUser(2001 + i, name) for i, name in enumerate(MEMBER_NAMES)],
            self._right_positions,
        )
        self.decks = DeckFolder(folder / "decks", settings.content_dir or DEFAULT_CONTENT_DIR)
        self.state = PlaygroundState()
        self._bot: RunningBot | None = None
        self._bot_stack: AsyncExitStack | None = None
        self._forgetting: asyncio.Task[None] | None = None

    # -- lifecycle -----------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        """False for the moment the bot restarts (a deck was loaded)."""
        return self._bot is not None

    @property
    def bot(self) -> RunningBot:
        if self._bot is None:
            raise RuntimeError("the playground's bot is not running")
        return self._bot

    def bot_settings(self) -> Settings:
        """The person's settings, pointed at the in-process server, the playground's own
        database and deck folder: nothing reaches Telegram or the production database."""
        return self.settings.model_copy(
            update={
                "telegram_bot_token": SecretStr(self.server.token),
                "api_base_url": self.server.url,
                "database": str(self.folder / "quizbot.sqlite3"),
                "content_dir": self.decks.folder,
                "webhook_url": None,
                "webhook_secret": None,
                "http_port": None,
                "rate_limit_scale": 1.0,
            }
        )

    async def start(self) -> None:
        await self.server.start()
        database = self.folder / "quizbot.sqlite3"
        for leftover in self.folder.glob("quizbot.sqlite3*"):
            leftover.unlink()  # each playground starts empty (the server's chats do too)
        log.info("playground database: %s", database)
        self.server.set_admins(GROUP.id, [YOU.id])
        self.server.add_member_update(GROUP, YOU)  # the bot joins the group the person made
        await self._start_bot()
        self.members.start()
        self._forgetting = asyncio.create_task(self._forget_old(), name="playground-forget")

    async def stop(self) -> None:
        if self._forgetting is not None:
            self._forgetting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._forgetting
        await self.members.stop()
        await self._stop_bot()
        await self.server.stop()

    async def _forget_old(self) -> None:
        """An hour of play keeps the server's memory flat: the database keeps the history."""
        while True:
            await asyncio.sleep(FORGET_EVERY_SECONDS)
            self.server.forget_old(SERVER_KEEPS)

    async def _start_bot(self) -> None:
        stack = AsyncExitStack()
        self._bot = await stack.enter_async_context(
            running_bot(self.bot_settings(), clock=self.clock, poll_timeout=1)
        )
        self._bot_stack = stack

    async def _stop_bot(self) -> None:
        stack, self._bot_stack, self._bot = self._bot_stack, None, None
        if stack is not None:
            await stack.aclose()

    # -- what the person does ------------------------------------------------------------------

    def chat(self, chat_id: int) -> FakeChat:
        for chat in (self.private, self.group):
            if chat.id == chat_id:
                return chat
        raise LookupError(f"the playground has no chat {chat_id}")

    def say(self, chat_id: int, text: str) -> None:
        """The person writes `text` in the chat (a command, or anything else)."""
        self.server.send_message(self.chat(chat_id), YOU, text)

    def press(self, chat_id: int, message_id: int, data: str) -> Press:
        """The person presses a button; its answer shows when the bot gives it."""
        query_id = self.server.press_button(self.chat(chat_id), YOU, message_id, data)
        press = Press(query_id, chat_id, message_id)
        self.state.presses = [*self.state.presses[-(PRESSES_KEPT - 1) :], press]
        return press

    def start_link(self, payload: str) -> None:
        """A t.me link to the bot with `?start=payload`: the private chat, and /start payload,
        as Telegram sends it when the person taps Start."""
        self.say(self.private.id, f"/start {payload}" if payload else "/start")

    async def advance(self, by: timedelta) -> None:
        """Move the clock forward, an hour at most at a time, and let the bot act on what came
        due after each step (closing questions, daily pushes, reviews): a day's jump passes
        through the daily slot as a day would, instead of landing too late for it."""
        left = by
        while left > timedelta(0):
            step = min(left, CLOCK_STEP)
            self.clock.advance(step)
            await self.bot.ticker.tick()
            left -= step
        self.server.poke()

    async def to_next_daily(self) -> timedelta | None:
        """Move the clock to the group's next daily question; how far (None: no /daily set)."""
        schedule = await self.bot.store.schedule(GROUP.id)
        if schedule is None or not schedule.enabled:
            return None
        by = max(timedelta(0), schedule.next_slot_at - self.clock.now()) + timedelta(seconds=1)
        await self.advance(by)
        return by

    async def close_open_questions(self) -> timedelta:
        """Move the clock to the last deadline of the group's open questions; how far."""
        deadlines = []
        for message in self.server.bot_messages(GROUP.id):
            for ask_id in asks_of(message.callback_data):
                ask = await self.bot.services.asking.get(ask_id)
                if ask is not None and ask.closes_at is not None and ask.closed_at is None:
                    deadlines.append(ask.closes_at)
        if not deadlines:
            return timedelta(0)
        by = max(timedelta(0), max(deadlines) - self.clock.now() + timedelta(seconds=1))
        await self.advance(by)
        return by

    async def load_deck(self, name: str, content: bytes) -> Deck | DeckRejected:
        """Check a deck file; a good one is served at once (the bot restarts on the same
        database) and becomes both chats' deck."""
        return await self._serve_deck(self.decks.add(name, content))

    async def load_deck_file(self, path: Path) -> Deck | DeckRejected:
        """As :meth:`load_deck`, for a file on disk: the images it names come along."""
        return await self._serve_deck(self.decks.add_file(path))

    async def _serve_deck(self, found: Deck | DeckRejected) -> Deck | DeckRejected:
        if isinstance(found, DeckRejected):
            self.state.deck_problems = found.problems
            self.server.poke()
            return found
        self.state.deck_problems, self.state.deck_loaded = [], found.id
        await self._stop_bot()
        await self._start_bot()
        await self.choose_deck(found.id)
        return found

    async def choose_deck(self, deck_id: str) -> Deck | None:
        """Both chats draw from `deck_id` from now on (None: no such deck)."""
        deck = self.decks.decks().get(deck_id)
        if deck is None:
            return None
        for chat in (self.private, self.group):
            kind = ChatKind.PRIVATE if chat.type == "private" else ChatKind.SUPERGROUP
            await self.bot.services.chats.set_deck(ChatRef(chat.id, kind), deck)
        self.server.poke()
        return deck

    def set_pace(self, pace: Pace) -> None:
        self.members.pace = pace
        self.server.poke()

    async def _right_positions(self, ask_id: int) -> frozenset[int] | None:
        ask = await self.bot.services.asking.get(ask_id)
        return None if ask is None else ask.right_positions


@asynccontextmanager
async def playground(settings: Settings, folder: Path) -> AsyncIterator[Playground]:
    """A started playground; leaving the block stops the bot, the members and the server."""
    session = Playground(settings, folder)
    try:
        await session.start()
        yield session
    finally:
        await session.stop()
