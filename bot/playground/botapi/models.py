"""Plain records of the fake Bot API: users, chats, stored messages, calls, errors."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = [
    "ApiCall",
    "ApiError",
    "CallbackAnswer",
    "ChatType",
    "FakeChat",
    "FakeUser",
    "FaultKind",
    "JsonDict",
    "MemberStatus",
    "StoredMessage",
    "member_dict",
]

JsonDict = dict[str, Any]
ChatType = Literal["private", "group", "supergroup", "channel"]
MemberStatus = Literal["creator", "administrator", "member", "left", "kicked"]
FaultKind = Literal["api_error", "raw_response", "timeout", "dropped", "response_lost"]


@dataclass(frozen=True, slots=True)
class FakeUser:
    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    is_bot: bool = False
    language_code: str | None = None

    def to_dict(self) -> JsonDict:
        data: JsonDict = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        for key in ("last_name", "username", "language_code"):
            if (value := getattr(self, key)) is not None:
                data[key] = value
        return data


@dataclass(frozen=True, slots=True)
class FakeChat:
    id: int
    type: ChatType
    title: str | None = None
    is_forum: bool = False
    username: str | None = None
    first_name: str | None = None
    last_name: str | None = None

    @classmethod
    def private(cls, user: FakeUser) -> FakeChat:
        return cls(
            user.id,
            "private",
            username=user.username,
            first_name=user.first_name,
            last_name=user.last_name,
        )

    @classmethod
    def group(cls, id: int, title: str = "Test group") -> FakeChat:
        return cls(id, "group", title)

    @classmethod
    def supergroup(
        cls, id: int, title: str = "Test supergroup", *, forum: bool = False
    ) -> FakeChat:
        return cls(id, "supergroup", title, is_forum=forum)

    @property
    def is_group(self) -> bool:
        return self.type in ("group", "supergroup")

    def to_dict(self) -> JsonDict:
        data: JsonDict = {"id": self.id, "type": self.type}
        for key in ("title", "username", "first_name", "last_name"):
            if (value := getattr(self, key)) is not None:
                data[key] = value
        if self.is_forum:
            data["is_forum"] = True
        return data


@dataclass(slots=True)
class StoredMessage:
    """A message as the fake keeps it (bot and user messages share the per-chat id sequence)."""

    chat: FakeChat
    message_id: int
    date: int
    sender: FakeUser
    text: str | None  # as sent (raw HTML for parse_mode=HTML); also what to_dict() returns
    # (a photo's caption is in the caption fields below; ``shown_text`` gives either)
    reply_markup: JsonDict | None = None
    parse_mode: str | None = None
    thread_id: int | None = None
    reply_to: int | None = None
    entities: list[JsonDict] | None = None
    edit_count: int = 0
    edit_date: int | None = None
    deleted: bool = False
    extra: JsonDict = field(default_factory=dict)  # extra Telegram fields, returned verbatim
    sent_params: JsonDict = field(default_factory=dict)  # other sendMessage/sendPhoto params
    # What Telegram would show: the text after parse_mode parsing (defaults to ``text``) and its
    # formatting entities (Bot API MessageEntity dicts, UTF-16 offsets into visible_text).
    visible_text: str | None = None
    parsed_entities: list[JsonDict] = field(default_factory=list)
    # A photo message (``text`` is None): the photo's file_id and PhotoSize dicts, and its caption
    # like a text: as sent, as shown, and the entities shown (UTF-16 offsets into the caption).
    photo_file_id: str | None = None
    photo: list[JsonDict] = field(default_factory=list)
    caption: str | None = None
    visible_caption: str | None = None
    caption_entities: list[JsonDict] = field(default_factory=list)
    show_caption_above_media: bool = False

    def __post_init__(self) -> None:
        if self.visible_text is None:
            self.visible_text = self.text
        if self.visible_caption is None:
            self.visible_caption = self.caption

    @property
    def chat_id(self) -> int:
        return self.chat.id

    @property
    def from_bot(self) -> bool:
        return self.sender.is_bot

    @property
    def is_photo(self) -> bool:
        return self.photo_file_id is not None

    @property
    def shown_text(self) -> str:
        """What the chat shows of the message as text: its visible text, or a photo's visible
        caption ("" when there is neither)."""
        return (self.visible_caption if self.is_photo else self.visible_text) or ""

    @property
    def shown_entities(self) -> list[JsonDict]:
        """The entities of :attr:`shown_text` (parsed ones, or those a user's text came with)."""
        if self.is_photo:
            return self.caption_entities
        return self.parsed_entities if self.parse_mode else (self.entities or [])

    @property
    def keyboard(self) -> list[list[JsonDict]]:
        """The inline keyboard rows (empty when there is none)."""
        if not self.reply_markup:
            return []
        rows: list[list[JsonDict]] = self.reply_markup.get("inline_keyboard", [])
        return rows

    @property
    def buttons(self) -> list[JsonDict]:
        return [button for row in self.keyboard for button in row]

    @property
    def callback_data(self) -> list[str]:
        return [b["callback_data"] for b in self.buttons if "callback_data" in b]

    def button(self, text: str) -> str:
        """callback_data of the only button whose text contains ``text``."""
        found = [b for b in self.buttons if text in b.get("text", "") and "callback_data" in b]
        if len(found) != 1:
            texts = [b.get("text") for b in self.buttons]
            raise LookupError(f"{len(found)} buttons match {text!r}; buttons: {texts}")
        data: str = found[0]["callback_data"]
        return data

    def to_dict(self, reply_to: StoredMessage | None = None) -> JsonDict:
        data: JsonDict = {
            "message_id": self.message_id,
            "date": self.date,
            "chat": self.chat.to_dict(),
            "from": self.sender.to_dict(),
        }
        if self.text is not None:
            data["text"] = self.text
        if self.entities:
            data["entities"] = self.entities
        if self.photo:
            data["photo"] = self.photo
        if self.visible_caption:  # Telegram gives what it shows: the parsed caption, entities
            data["caption"] = self.visible_caption
            if self.caption_entities:
                data["caption_entities"] = self.caption_entities
            if self.show_caption_above_media:
                data["show_caption_above_media"] = True
        if self.reply_markup is not None:
            data["reply_markup"] = self.reply_markup
        if self.thread_id is not None:
            data["message_thread_id"] = self.thread_id
            data["is_topic_message"] = True
        if self.edit_date is not None:
            data["edit_date"] = self.edit_date
        if reply_to is not None:
            data["reply_to_message"] = reply_to.to_dict()
        return data | self.extra


@dataclass(slots=True)
class ApiCall:
    """One request the bot made. ``status`` is None while it is in flight, then the HTTP status
    answered, or 0 when the client got no response (client closed it: 499)."""

    method: str
    params: JsonDict
    time: float  # time.monotonic() at arrival
    status: int | None = None
    result: Any = None
    description: str | None = None
    fault: FaultKind | None = (
        None  # the injected fault that answered it (see bot.playground.botapi.faults)
    )
    processed: bool = False  # the method ran and succeeded: it took effect on the fake's state

    @property
    def ok(self) -> bool:
        """The client got a successful answer."""
        return self.status == 200

    def short(self) -> str:
        shown = {k: v for k, v in self.params.items() if not isinstance(v, bytes)}
        fault = f" [{self.fault}]" if self.fault else ""
        return f"{self.method}({shown}) -> {self.status}{fault} {self.description or ''}".rstrip()


@dataclass(frozen=True, slots=True)
class CallbackAnswer:
    text: str | None
    show_alert: bool = False
    url: str | None = None
    cache_time: int | None = None


class ApiError(Exception):
    """Raised by a method implementation; becomes ``{"ok": false, ...}``."""

    def __init__(self, status: int, description: str, parameters: JsonDict | None = None) -> None:
        super().__init__(description)
        self.status = status
        self.description = description
        self.parameters = parameters

    def payload(self) -> JsonDict:
        data: JsonDict = {"ok": False, "error_code": self.status, "description": self.description}
        if self.parameters:
            data["parameters"] = self.parameters
        return data


_ADMIN_RIGHTS = (  # noqa: SIM905
    "can_manage_chat can_delete_messages can_manage_video_chats can_restrict_members "
    "can_promote_members can_change_info can_invite_users can_post_stories can_edit_stories "
    "can_delete_stories can_pin_messages can_manage_topics"
).split()


def member_dict(user: FakeUser, status: MemberStatus) -> JsonDict:
    """A ChatMember object with the fields PTB requires for ``status``."""
    data: JsonDict = {"status": status, "user": user.to_dict()}
    if status == "creator":
        data["is_anonymous"] = False
    elif status == "administrator":
        data |= {"can_be_edited": False, "is_anonymous": False}
        data |= dict.fromkeys(_ADMIN_RIGHTS, True)
    elif status == "kicked":
        data["until_date"] = 0
    return data
