"""Helpers for end-to-end tests of questions with images: a deck of them written beside its PNG
files, the bot started on it, and reading the photo messages it sends."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from random import Random

import yaml

from bot.app import RunningBot, running_bot
from bot.config import Settings
from bot.playground.botapi import (
    ApiCall,
    BotApiServer,
    FakeChat,
    FakeUser,
    JsonDict,
    StoredMessage,
)
from tests.bot.playground.botapi.pictures import png
from tests.e2e.conftest import handling_updates, wait_for_polling
from tests.fakes.clock import FakeClock

DECK_ID = "figures"
DECK_TITLE = "Figures"
DIAGRAM = "images/ring.png"
ANSWER_DIAGRAM = "images/ring-answer.png"
PICTURES = {DIAGRAM: png(48, 32), ANSWER_DIAGRAM: png(64, 40, (198, 40, 40))}
RIGHT = "A ring"
EXPLANATION = "The NCCL ring passes each chunk to the next GPU in the ring."
# A stem long enough that the question no longer fits a photo's 1,024-character caption.
LONG_TEXT = (
    "Eight GPUs pass a gradient bucket along the links in the diagram. " * 15 + "Which shape?"
)

Question = dict[str, object]
StartOn = Callable[[list[Question]], AbstractAsyncContextManager[RunningBot]]


def question(qid: str, **fields: object) -> Question:
    """A single-answer question on the ring diagram (override any field; None drops it)."""
    base: Question = {
        "id": qid,
        "topic": "nccl",
        "text": f"Which topology does the diagram show ({qid})?",
        "answer": RIGHT,
        "wrong": ["A tree", "A mesh", "A star"],
        "explanation": EXPLANATION,
        "image": DIAGRAM,
    }
    return {k: v for k, v in (base | fields).items() if v is not None}


def write_deck(folder: Path, questions: list[Question]) -> Path:
    """The deck file and its images in `folder` (the content folder the bot loads)."""
    (folder / "images").mkdir(parents=True, exist_ok=True)
    for name, data in PICTURES.items():
        (folder / name).write_bytes(data)
    deck = {"id": DECK_ID, "title": DECK_TITLE, "source": "tests", "questions": questions}
    (folder / f"{DECK_ID}.yaml").write_text(yaml.safe_dump(deck), encoding="utf-8")
    return folder


def starter(settings: Settings, clock: FakeClock, fake: BotApiServer, folder: Path) -> StartOn:
    """Starts the bot on a deck of the given questions (its chats' default deck)."""

    @asynccontextmanager
    async def start(questions: list[Question]) -> AsyncIterator[RunningBot]:
        write_deck(folder, questions)
        only = settings.model_copy(update={"content_dir": folder, "default_deck": DECK_ID})
        async with running_bot(only, clock=clock, poll_timeout=1, rng=Random(11)) as running:
            await wait_for_polling(fake)
            with fake.busy_while(lambda: handling_updates(running)):
                yield running

    return start


def uploads(params: JsonDict) -> bool:
    """A sendPhoto call's params carry the file's bytes (not a file_id)."""
    return isinstance(params.get("photo"), bytes)


def is_upload(call: ApiCall) -> bool:
    return uploads(call.params)


def has_answer_buttons(message: StoredMessage) -> bool:
    return any(data.startswith("a:") for data in message.callback_data)


async def photo_question(
    fake: BotApiServer,
    chat: FakeChat,
    user: FakeUser,
    text: str = "/quiz",
    *,
    thread: int | None = None,
) -> tuple[StoredMessage, StoredMessage]:
    """`user` asks for a question: its photo message and the message with its buttons (the same
    one when the question is the photo's caption)."""
    since = len(fake.calls)
    fake.send_message(chat, user, text, thread_id=thread)
    photo_call = await fake.wait_for_call("sendPhoto", lambda c: c.ok, since=since)
    await fake.idle()
    photo = fake.message(chat.id, photo_call.result["message_id"])
    later = [m for m in fake.bot_messages(chat.id) if m.message_id >= photo.message_id]
    buttons = next(m for m in later if has_answer_buttons(m))
    return photo, buttons


async def press(
    fake: BotApiServer, chat: FakeChat, user: FakeUser, message: StoredMessage, data: str
) -> str:
    """`user` presses the button with `data` under `message`; the answer's text."""
    query = fake.press_button(chat, user, message.message_id, data)
    return (await fake.callback_answer(query)).text or ""
