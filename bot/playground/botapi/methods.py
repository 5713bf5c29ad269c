"""The Telegram methods the fake Bot API implements, with Telegram's error texts."""

from __future__ import annotations

import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

from .html import ParsedText
from .models import CallbackAnswer, FakeChat, JsonDict, StoredMessage, member_dict
from .state import bad_request
from .validation import int_param as _int
from .validation import parse_markup as _markup
from .validation import parse_text
from .webhook import BotApiWebhook

__all__ = ["NOT_MODIFIED", "QUERY_TOO_OLD", "SEND_FIELDS", "STRING_FIELDS", "BotApiMethods"]

# Form fields that stay strings even if they look like JSON numbers/booleans.
STRING_FIELDS = frozenset(
    (  # noqa: SIM905
        "text caption callback_query_id callback_data parse_mode url title description query "
        "inline_message_id first_name last_name username language_code emoji question explanation "
        "name short_description action business_connection_id message_effect_id secret_token "
        "ip_address custom_title sticker photo document audio video animation voice file_id "
        "thumbnail switch_inline_query address phone_number"
    ).split()
)
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
# The params every send takes besides its content (what the fake stores of them, or keeps as sent).
SEND_FIELDS = frozenset(
    (  # noqa: SIM905
        "reply_markup message_thread_id reply_parameters reply_to_message_id "
        "allow_sending_without_reply"
    ).split()
)
_COMMAND = re.compile(r"[a-z0-9_]{1,32}")
_NO_GIFTS = {
    key: False
    for key in (
        "unlimited_gifts",
        "limited_gifts",
        "unique_gifts",
        "premium_subscription",
        "gifts_from_channels",
    )
}

Method = Callable[[JsonDict], Awaitable[Any]]
_bad = bad_request


class BotApiMethods(BotApiWebhook):
    """Adds the method table; ``method(params) -> result`` raising ApiError on failure."""

    def __init__(self, *, token: str, bot_id: int, bot_username: str) -> None:
        super().__init__(token=token, bot_id=bot_id, bot_username=bot_username)
        self._methods: dict[str, Method] = {
            "getMe": self._get_me,
            "getUpdates": self._get_updates,
            "setWebhook": self._set_webhook,
            "deleteWebhook": self._delete_webhook,
            "getWebhookInfo": self._get_webhook_info,
            "setMyCommands": self._set_my_commands,
            "getMyCommands": self._get_my_commands,
            "deleteMyCommands": self._delete_my_commands,
            "sendMessage": self._send_message,
            "sendChatAction": self._send_chat_action,
            "editMessageText": self._edit_message_text,
            "editMessageReplyMarkup": self._edit_message_reply_markup,
            "answerCallbackQuery": self._answer_callback_query,
            "deleteMessage": self._delete_message,
            "getChat": self._get_chat,
            "getChatMember": self._get_chat_member,
            "getChatAdministrators": self._get_chat_administrators,
        }
        self._method_names = {name.lower(): name for name in self._methods}
        # Also reject a bare "&" or ">" in HTML texts (Telegram keeps them; see
        # bot.playground.botapi.html).
        self.strict_html_escaping = False

    def _parse_text(self, params: JsonDict, *, too_long: str) -> ParsedText:
        return parse_text(params, too_long=too_long, strict_escaping=self.strict_html_escaping)

    # -- methods -------------------------------------------------------------------------------

    async def _get_me(self, params: JsonDict) -> JsonDict:
        flags = "can_read_all_group_messages supports_inline_queries can_connect_to_business"
        return (
            self.bot_user.to_dict()
            | {"can_join_groups": True, "has_main_web_app": False}
            | dict.fromkeys(flags.split(), False)
        )

    async def _set_my_commands(self, params: JsonDict) -> bool:
        commands = params.get("commands")
        if not isinstance(commands, list):
            raise _bad("can't parse commands JSON object")
        for cmd in commands:
            if not isinstance(cmd, dict) or not _COMMAND.fullmatch(str(cmd.get("command", ""))):
                raise _bad("BOT_COMMAND_INVALID")
            if not 1 <= len(str(cmd.get("description", "")).strip()) <= 256:
                raise _bad("BOT_COMMAND_DESCRIPTION_INVALID")
        self._commands[self._commands_key(params)] = commands
        return True

    async def _get_my_commands(self, params: JsonDict) -> list[JsonDict]:
        return self._commands.get(self._commands_key(params), [])

    async def _delete_my_commands(self, params: JsonDict) -> bool:
        self._commands.pop(self._commands_key(params), None)
        return True

    def _reply_to(self, chat: FakeChat, params: JsonDict) -> int | None:
        """The message a send replies to (reply_parameters, or the older reply_to_message_id)."""
        reply = params.get("reply_parameters")
        if not isinstance(reply, dict):
            reply = (
                {}
                if "reply_to_message_id" not in params
                else {
                    "message_id": params["reply_to_message_id"],
                    "allow_sending_without_reply": params.get("allow_sending_without_reply"),
                }
            )
        reply_to = _int(reply, "message_id") if reply else None
        if reply_to is not None and self._find(chat.id, reply_to) is None:
            if reply.get("allow_sending_without_reply") is not True:
                raise _bad("message to be replied not found")
            reply_to = None
        return reply_to

    async def _send_message(self, params: JsonDict) -> JsonDict:
        chat = self._usable_chat(params)
        parsed = self._parse_text(params, too_long="message is too long")
        markup = _markup(params)
        reply_to = self._reply_to(chat, params)
        thread = params.get("message_thread_id")
        known = {"chat_id", "text", "parse_mode"} | SEND_FIELDS
        msg = self._store(
            chat,
            self.bot_user,
            str(params["text"]),
            visible_text=parsed.text,
            parsed_entities=list(parsed.entities),
            reply_markup=markup,
            parse_mode=params.get("parse_mode"),
            thread_id=int(thread) if thread is not None else None,
            reply_to=reply_to,
            sent_params={k: v for k, v in params.items() if k not in known},
        )
        return self.message_dict(msg)

    async def _send_chat_action(self, params: JsonDict) -> bool:
        self._usable_chat(params)
        return True

    def _editable(self, params: JsonDict) -> StoredMessage:
        if "inline_message_id" in params:
            raise _bad("inline messages are not supported by the fake")
        chat = self._usable_chat(params)
        msg = self._find(chat.id, _int(params, "message_id"))
        if msg is None:
            raise _bad("message to edit not found")
        if not msg.from_bot:
            raise _bad("message can't be edited")
        return msg

    async def _edit_message_text(self, params: JsonDict) -> JsonDict:
        msg = self._editable(params)
        parsed = self._parse_text(params, too_long="MESSAGE_TOO_LONG")
        if msg.text is None:  # a photo (editMessageCaption edits its caption)
            raise _bad("there is no text in the message to edit")
        markup, entities = _markup(params), list(parsed.entities)
        # Telegram compares what it would show: visible text + entities, and the markup.
        shown = (parsed.text, entities, markup)
        if (msg.visible_text, msg.parsed_entities, msg.reply_markup) == shown:
            raise _bad(NOT_MODIFIED.removeprefix("Bad Request: "))
        msg.text, msg.parse_mode = str(params["text"]), params.get("parse_mode")
        msg.visible_text, msg.parsed_entities, msg.reply_markup = shown
        msg.edit_count += 1
        msg.edit_date = int(time.time())
        return self.message_dict(msg)

    async def _edit_message_reply_markup(self, params: JsonDict) -> JsonDict:
        msg = self._editable(params)
        markup = _markup(params)
        if msg.reply_markup == markup:
            raise _bad(NOT_MODIFIED.removeprefix("Bad Request: "))
        msg.reply_markup = markup
        msg.edit_count += 1
        return self.message_dict(msg)

    async def _answer_callback_query(self, params: JsonDict) -> bool:
        query_id = str(params.get("callback_query_id") or "")
        if query_id not in self._pending_queries:
            raise _bad(QUERY_TOO_OLD.removeprefix("Bad Request: "))
        text = params.get("text")
        if text is not None and len(str(text)) > 200:
            raise _bad("MESSAGE_TOO_LONG")
        self._pending_queries.discard(query_id)
        cache_time = params.get("cache_time")
        self.callback_answers[query_id] = CallbackAnswer(
            None if text is None else str(text),
            params.get("show_alert") is True,
            params.get("url"),
            None if cache_time is None else int(cache_time),
        )
        return True

    async def _delete_message(self, params: JsonDict) -> bool:
        chat = self._usable_chat(params)
        msg = self._find(chat.id, _int(params, "message_id"))
        if msg is None:
            raise _bad("message to delete not found")
        bot_status = self.member_status(chat.id, self.bot_user.id)
        if chat.is_group and not msg.from_bot and bot_status not in ("administrator", "creator"):
            raise _bad("message can't be deleted")
        msg.deleted = True
        return True

    async def _get_chat(self, params: JsonDict) -> JsonDict:
        chat = self._usable_chat(params)
        extra = {"accent_color_id": 0, "max_reaction_count": 11}
        return chat.to_dict() | extra | {"accepted_gift_types": dict(_NO_GIFTS)}

    async def _get_chat_member(self, params: JsonDict) -> JsonDict:
        chat = self._usable_chat(params)
        user_id = _int(params, "user_id")
        return member_dict(self._user(user_id), self.member_status(chat.id, user_id))

    async def _get_chat_administrators(self, params: JsonDict) -> list[JsonDict]:
        chat = self._usable_chat(params)
        if not chat.is_group:
            raise _bad("there are no administrators in the private chat")
        ids = [self._owners[chat.id]] if chat.id in self._owners else []
        ids += [uid for uid in self._admins.get(chat.id, []) if uid not in ids]
        return [member_dict(self._user(uid), self.member_status(chat.id, uid)) for uid in ids]
