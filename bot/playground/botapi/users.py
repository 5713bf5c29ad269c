"""Scripting users: messages, button presses and member changes arrive as updates."""

from __future__ import annotations

import re
import time

from .models import FakeChat, FakeUser, JsonDict, MemberStatus, member_dict
from .photos import BotApiPhotos

__all__ = ["BotApiUsers"]

_COMMAND = re.compile(r"/[A-Za-z0-9_]+(?:@[A-Za-z0-9_]+)?")


class BotApiUsers(BotApiPhotos):
    """Adds the test-side calls that make users act (each pushes an update for getUpdates)."""

    def __init__(self, *, token: str, bot_id: int, bot_username: str) -> None:
        super().__init__(token=token, bot_id=bot_id, bot_username=bot_username)
        self._query_seq = 0

    def _register(self, chat: FakeChat, *users: FakeUser) -> None:
        self.chats.setdefault(chat.id, chat)
        for user in users:
            self.users[user.id] = user

    def send_message(
        self,
        chat: FakeChat,
        user: FakeUser,
        text: str,
        *,
        thread_id: int | None = None,
        reply_to: int | None = None,
    ) -> JsonDict:
        """A user writes ``text``; returns the message as delivered in the update."""
        self._register(chat, user)
        match = _COMMAND.match(text)
        entities = [{"type": "bot_command", "offset": 0, "length": match.end()}] if match else None
        msg = self._store(
            chat, user, text, thread_id=thread_id, reply_to=reply_to, entities=entities
        )
        data = self.message_dict(msg)
        self.push_update({"message": data})
        return data

    def press_button(self, chat: FakeChat, user: FakeUser, message_id: int, data: str) -> str:
        """A user presses a button (any ``data``, even a forged one); returns the query id."""
        self._register(chat, user)
        self._query_seq += 1
        query_id = str(7_000_000_000_000_000 + self._query_seq)
        msg = self._find(chat.id, message_id)
        message = (
            self.message_dict(msg)
            if msg
            else {"chat": chat.to_dict(), "message_id": message_id, "date": 0}
        )
        self._pending_queries.add(query_id)
        query = {
            "id": query_id,
            "from": user.to_dict(),
            "chat_instance": str(abs(chat.id) * 31 + 17),
            "data": data,
            "message": message,
        }
        self.push_update({"callback_query": query})
        return query_id

    def member_update(
        self,
        chat: FakeChat,
        actor: FakeUser,
        *,
        old_status: MemberStatus,
        new_status: MemberStatus,
        member: FakeUser | None = None,
    ) -> int:
        """``my_chat_member`` (member None: the bot; also kicks/blocks/restores the bot) or
        ``chat_member`` update; returns its update_id."""
        self._register(chat, actor)
        target = member or self.bot_user
        is_bot = target.id == self.bot_user.id
        if is_bot and new_status in ("left", "kicked"):
            (self.kick_bot if chat.is_group else self.block_bot)(chat.id)
        elif is_bot:
            self.restore_bot(chat.id)
        if not is_bot:
            self.users[target.id] = target
        self._member_status[chat.id, target.id] = new_status
        change = {
            "chat": chat.to_dict(),
            "from": actor.to_dict(),
            "date": int(time.time()),
            "old_chat_member": member_dict(target, old_status),
            "new_chat_member": member_dict(target, new_status),
        }
        return self.push_update({"my_chat_member" if is_bot else "chat_member": change})

    def add_member_update(
        self, chat: FakeChat, actor: FakeUser, member: FakeUser | None = None
    ) -> int:
        """The bot (or ``member``) was added to ``chat`` by ``actor``."""
        return self.member_update(
            chat, actor, old_status="left", new_status="member", member=member
        )
