"""State of the fake Bot API: chats, stored messages, members and the update queue."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from .models import (
    ApiError,
    CallbackAnswer,
    ChatType,
    FakeChat,
    FakeUser,
    JsonDict,
    MemberStatus,
    StoredMessage,
)

__all__ = ["BotApiState", "bad_request"]

_DEFAULT_EXCLUDED_UPDATES = frozenset({"chat_member", "message_reaction", "message_reaction_count"})


def bad_request(description: str) -> ApiError:
    return ApiError(400, f"Bad Request: {description}")


class BotApiState:
    """Chats, messages and the update queue, with Telegram's rules. No I/O here."""

    def __init__(self, *, token: str, bot_id: int, bot_username: str) -> None:
        self.token = token
        self.bot_user = FakeUser(bot_id, "QuizBot Test", username=bot_username, is_bot=True)
        self.chats: dict[int, FakeChat] = {}
        self.users: dict[int, FakeUser] = {}
        self.callback_answers: dict[str, CallbackAnswer] = {}
        self.dropped_updates: list[JsonDict] = []  # filtered out by allowed_updates
        self._messages: dict[int, dict[int, StoredMessage]] = {}
        self._admins: dict[int, list[int]] = {}
        self._owners: dict[int, int] = {}
        self._member_status: dict[tuple[int, int], MemberStatus] = {}
        self._forbidden: dict[int, str] = {}
        self._migrated: dict[int, int] = {}
        self._updates: list[JsonDict] = []
        self._history: dict[int, JsonDict] = {}  # every update pushed, by id
        self._next_update_id = 1
        self._delivered_upto = 0
        self._allowed_updates: set[str] | None = None
        self._pending_queries: set[str] = set()
        self._commands: dict[tuple[str, str], list[JsonDict]] = {}
        self._changed = asyncio.Event()
        self.version = 0  # counts changes: a watcher that saw version N waits for N + 1

    # -- change notification (wakes long polls, waiters and the playground's page) -------------

    def _notify(self) -> None:
        self.version += 1
        self._changed.set()
        self._changed = asyncio.Event()

    def _forget_old_state(self, keep: int) -> None:
        for update_id in sorted(self._history)[:-keep]:
            del self._history[update_id]
        for query_id in list(self.callback_answers)[:-keep]:
            del self.callback_answers[query_id]
        del self.dropped_updates[:-keep]
        for messages in self._messages.values():
            older = list(messages)[:-keep]
            with_buttons = [message_id for message_id in older if messages[message_id].keyboard]
            kept = set(with_buttons[-keep:])
            for message_id in older:
                if message_id not in kept:
                    del messages[message_id]

    def poke(self) -> None:
        """Wake everyone waiting for a change (something beside the chats changed)."""
        self._notify()

    async def changed(self, seconds: float = 30.0) -> bool:
        """Wait for the next change (a message, an edit, a call, an update); False when
        `seconds` passed without one."""
        return await self._wait_change(seconds)

    async def _wait_change(self, seconds: float) -> bool:
        event = self._changed
        try:
            async with asyncio.timeout(max(seconds, 0.0)):
                await event.wait()
        except TimeoutError:
            return False
        return True

    # -- state helpers -------------------------------------------------------------------------

    def _chat(self, params: JsonDict) -> FakeChat:
        """The chat named by chat_id; unknown numeric ids are created (private if > 0)."""
        chat_id = params.get("chat_id")
        if chat_id is None or chat_id == "":
            raise bad_request("chat_id is empty")
        if isinstance(chat_id, str):
            found = [c for c in self.chats.values() if f"@{c.username}" == chat_id]
            if not found:
                raise bad_request("chat not found")
            return found[0]
        if not isinstance(chat_id, int) or isinstance(chat_id, bool):
            raise bad_request("invalid chat_id specified")
        if chat_id not in self.chats:
            kind: ChatType = (
                "private" if chat_id > 0 else "supergroup" if chat_id < -(10**12) else "group"
            )
            title = None if kind == "private" else f"Chat {chat_id}"
            first = f"User {chat_id}" if kind == "private" else None
            self.chats[chat_id] = FakeChat(chat_id, kind, title, first_name=first)
        return self.chats[chat_id]

    def _usable_chat(self, params: JsonDict) -> FakeChat:
        chat = self._chat(params)
        if chat.id in self._migrated:
            raise ApiError(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                {"migrate_to_chat_id": self._migrated[chat.id]},
            )
        if chat.id in self._forbidden:
            raise ApiError(403, self._forbidden[chat.id])
        return chat

    def _store(
        self, chat: FakeChat, sender: FakeUser, text: str | None, **kw: Any
    ) -> StoredMessage:
        self.chats.setdefault(chat.id, chat)
        messages = self._messages.setdefault(chat.id, {})
        message_id = max(messages, default=0) + 1
        msg = StoredMessage(chat, message_id, int(time.time()), sender, text, **kw)
        messages[message_id] = msg
        return msg

    def _find(self, chat_id: int, message_id: int) -> StoredMessage | None:
        msg = self._messages.get(chat_id, {}).get(message_id)
        return None if msg is None or msg.deleted else msg

    def message_dict(self, msg: StoredMessage) -> JsonDict:
        """The message as Telegram would serialise it (with reply_to_message one level deep)."""
        reply = self._messages.get(msg.chat.id, {}).get(msg.reply_to or 0)
        return msg.to_dict(reply)

    def member_status(self, chat_id: int, user_id: int) -> MemberStatus:
        if user_id == self.bot_user.id and chat_id in self._forbidden:
            return "kicked"
        if (chat_id, user_id) in self._member_status:
            return self._member_status[chat_id, user_id]
        if self._owners.get(chat_id) == user_id:
            return "creator"
        if user_id in self._admins.get(chat_id, []):
            return "administrator"
        return "member"

    def _user(self, user_id: int) -> FakeUser:
        if user_id == self.bot_user.id:
            return self.bot_user
        return self.users.get(user_id) or FakeUser(user_id, f"User {user_id}")

    @staticmethod
    def _commands_key(params: JsonDict) -> tuple[str, str]:
        scope = params.get("scope")
        scope_key = (
            "" if scope in (None, {"type": "default"}) else json.dumps(scope, sort_keys=True)
        )
        return scope_key, str(params.get("language_code") or "")

    # -- updates -------------------------------------------------------------------------------

    def push_update(self, update: JsonDict) -> int:
        """Enqueue a raw update (its update_id is assigned here) and wake getUpdates."""
        update_id = self._next_update_id
        self._next_update_id += 1
        body = {k: v for k, v in update.items() if k != "update_id"}
        self._updates.append({"update_id": update_id, **body})
        self._history[update_id] = self._updates[-1]
        self._notify()
        return update_id

    @property
    def last_update_id(self) -> int:
        """The update_id given to the newest update."""
        return self._next_update_id - 1

    def redeliver(self, update_id: int) -> None:
        """Offer an update again, as Telegram does when the bot never confirmed it (a polling
        bot killed before its next getUpdates): the next poll from offset 0 gets it."""
        update = self._history[update_id]
        self._updates = sorted([*self._updates, update], key=lambda u: int(u["update_id"]))
        self._notify()

    @property
    def pending_updates(self) -> list[JsonDict]:
        """Updates not yet confirmed by the bot (via a later getUpdates offset)."""
        return list(self._updates)

    def _deliverable(self, limit: int) -> list[JsonDict]:
        allowed, kept = self._allowed_updates, list[JsonDict]()
        for update in self._updates:
            kind = next((k for k in update if k != "update_id"), "")
            excluded = kind in _DEFAULT_EXCLUDED_UPDATES if allowed is None else kind not in allowed
            (self.dropped_updates if excluded else kept).append(update)
        self._updates = kept
        return kept[:limit]

    async def _get_updates(self, params: JsonDict) -> list[JsonDict]:
        offset = int(params.get("offset") or 0)
        limit = min(max(int(params.get("limit") or 100), 1), 100)
        timeout = float(params.get("timeout") or 0)
        if isinstance(allowed := params.get("allowed_updates"), list):
            self._allowed_updates = {str(kind) for kind in allowed} or None
        if offset > 0:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
        elif offset < 0:
            self._updates = self._updates[offset:]
        deadline = asyncio.get_running_loop().time() + timeout
        while not (batch := self._deliverable(limit)):
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0 or not await self._wait_change(remaining):
                break
        if batch:
            self._delivered_upto = max(self._delivered_upto, batch[-1]["update_id"])
        return batch

    # -- scripting chat state (test side) ------------------------------------------------------

    def set_admins(self, chat_id: int, user_ids: list[int], *, owner_id: int | None = None) -> None:
        """Administrators of the chat (include the bot's id to make the bot an admin)."""
        self._admins[chat_id] = list(user_ids)
        if owner_id is not None:
            self._owners[chat_id] = owner_id

    def set_member_status(self, chat_id: int, user_id: int, status: MemberStatus) -> None:
        self._member_status[chat_id, user_id] = status

    def kick_bot(self, chat_id: int) -> None:
        self._forbidden[chat_id] = "Forbidden: bot was kicked from the group chat"

    def block_bot(self, chat_id: int) -> None:
        self._forbidden[chat_id] = "Forbidden: bot was blocked by the user"

    def restore_bot(self, chat_id: int) -> None:
        self._forbidden.pop(chat_id, None)
        self._member_status.pop((chat_id, self.bot_user.id), None)

    def migrate_chat(
        self, old_id: int, new_id: int, *, notify: bool = False, by: FakeUser | None = None
    ) -> None:
        """Group ``old_id`` became supergroup ``new_id``: sends to the old id fail with 400 +
        migrate_to_chat_id. ``notify`` also enqueues Telegram's two service messages (sent by
        ``by``, default the Telegram service user 777000)."""
        self._migrated[old_id] = new_id
        old = self.chats.get(old_id) or FakeChat.group(old_id)
        new = FakeChat.supergroup(new_id, old.title or "Supergroup")
        self.chats.setdefault(new_id, new)
        if notify:
            for chat, extra in (
                (old, {"migrate_to_chat_id": new_id}),
                (new, {"migrate_from_chat_id": old_id}),
            ):
                sender = by or FakeUser(777000, "Telegram")
                msg = self._store(chat, sender, None, extra=extra)
                self.push_update({"message": self.message_dict(msg)})

    # -- reading state (test side) -------------------------------------------------------------

    def chat_messages(self, chat_id: int, *, include_deleted: bool = False) -> list[StoredMessage]:
        """User and bot messages of the chat, oldest first."""
        messages = self._messages.get(chat_id, {}).values()
        return [m for m in messages if include_deleted or not m.deleted]

    def bot_messages(self, chat_id: int) -> list[StoredMessage]:
        return [m for m in self.chat_messages(chat_id) if m.from_bot]

    def find_message(self, chat_id: int, message_id: int) -> StoredMessage | None:
        """The message, or None when the chat has none with that id."""
        return self._find(chat_id, message_id)

    def message(self, chat_id: int, message_id: int) -> StoredMessage:
        try:
            return self._messages[chat_id][message_id]
        except KeyError:
            known = list(self._messages.get(chat_id, {}))
            raise KeyError(f"no message {message_id} in chat {chat_id} (have {known})") from None

    @property
    def commands(self) -> list[JsonDict]:
        """Commands set with setMyCommands for the default scope and language."""
        return self._commands.get(("", ""), [])

    def commands_for(
        self, scope: JsonDict | None = None, language_code: str = ""
    ) -> list[JsonDict]:
        return self._commands.get(
            self._commands_key({"scope": scope, "language_code": language_code}), []
        )
