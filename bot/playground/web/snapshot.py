"""What the page shows, as JSON: the two chats as Telegram would show them, the answers to the
person's presses, the bot's command menu, the clock, the decks and the members' pace.

Texts go out as Telegram's clients get them: the visible text and its entities (offsets in
UTF-16 units, as JavaScript strings count), never HTML; the page builds its elements from them
with textContent, so nothing a deck or a user wrote can become markup. A photo goes out as
its caption (text and entities, the same way) and the address of its bytes on the page's own
server (`/api/photo/<file_id>`), with its size.
"""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any
from urllib.parse import quote

from bot.playground.botapi import FakeChat, StoredMessage
from bot.playground.session import Playground

Json = dict[str, Any]


def message_view(message: StoredMessage) -> Json:
    view: Json = {
        "id": message.message_id,
        "from": {
            "id": message.sender.id,
            "name": message.sender.first_name,
            "bot": message.sender.is_bot,
        },
        "text": message.shown_text,  # a photo's caption
        "entities": message.shown_entities,
        "edited": message.edit_count > 0,
        "buttons": [
            [_button(button) for button in row] for row in message.keyboard if isinstance(row, list)
        ],
    }
    if message.reply_to is not None:
        view["reply_to"] = message.reply_to
    if message.photo_file_id is not None and message.photo:
        size = message.photo[-1]
        view["photo"] = {
            "url": f"/api/photo/{quote(message.photo_file_id, safe='')}",
            "width": int(size["width"]),
            "height": int(size["height"]),
            "above": message.show_caption_above_media,
        }
    return view


def _button(button: Json) -> Json:
    view: Json = {"text": str(button.get("text", ""))}
    if "callback_data" in button:
        view["data"] = str(button["callback_data"])
    if "url" in button:
        view["url"] = str(button["url"])
    return view


class Versions:
    """Numbers the snapshots the page sees: the number goes up only when what the page shows
    changed (the server also changes with every long poll of the bot, which shows nothing)."""

    def __init__(self) -> None:
        self.version = 0
        self._digest = ""

    async def newer_than(self, session: Playground, after: int, wait: float) -> Json:
        """The snapshot once its version is above `after`, or the current one after `wait`
        seconds."""
        deadline = time.monotonic() + wait
        while True:
            view = await self.current(session)
            left = deadline - time.monotonic()
            if view["version"] > after or left <= 0:
                return view
            await session.server.changed(left)

    async def current(self, session: Playground) -> Json:
        view = await snapshot(session)
        # The time shown moves by itself (the page adds the seconds since); only a move of the
        # clock is a change.
        shown = view | {"clock": {"moved_seconds": view["clock"]["moved_seconds"]}}
        digest = hashlib.sha256(json.dumps(shown, sort_keys=True).encode()).hexdigest()
        if digest != self._digest:
            self._digest, self.version = digest, self.version + 1
        return view | {"version": self.version}


async def snapshot(session: Playground) -> Json:
    """What the page shows now (without its version: see `Versions`)."""
    server = session.server
    chats = []
    for chat in (session.private, session.group):
        chats.append(await _chat_view(session, chat))
    answers = []
    for press in session.state.presses:
        answer = server.callback_answers.get(press.query_id)
        if answer is not None:
            answers.append(
                {
                    "query_id": press.query_id,
                    "chat_id": press.chat_id,
                    "message_id": press.message_id,
                    "text": answer.text or "",
                    "alert": answer.show_alert,
                }
            )
    decks = session.decks.decks()
    pace = session.members.pace
    return {
        "bot": {"username": server.bot_user.username, "name": server.bot_user.first_name},
        "you": {"id": 1001, "name": "You"},
        "chats": chats,
        "answers": answers,
        "commands": [
            {"command": str(c.get("command", "")), "description": str(c.get("description", ""))}
            for c in server.commands
        ],
        "clock": {
            "now": session.clock.now().isoformat(timespec="seconds"),
            "moved_seconds": int(session.clock.offset.total_seconds()),
        },
        "decks": {
            "available": [
                {"id": deck.id, "title": deck.title, "questions": len(deck.questions)}
                for deck in sorted(decks.values(), key=lambda d: d.id)
            ],
            "loaded": session.state.deck_loaded,
            "problems": session.state.deck_problems,
        },
        "members": {
            "names": [person.first_name for person in session.members.people],
            "accuracy": pace.accuracy,
            "fastest": pace.fastest,
            "slowest": pace.slowest,
        },
    }


async def _chat_view(session: Playground, chat: FakeChat) -> Json:
    deck = await session.bot.services.chats.deck_for(chat.id) if session.running else None
    return {
        "id": chat.id,
        "kind": chat.type,
        "title": chat.title or session.server.bot_user.first_name,
        "deck": None if deck is None else deck.id,
        "messages": [message_view(m) for m in session.server.chat_messages(chat.id)],
    }
