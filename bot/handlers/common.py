"""Small conversions from Telegram objects to domain types, and replying to a command."""

from __future__ import annotations

from telegram import Chat, Message, ReplyParameters, User

from bot.core.model import ChatKind, ChatRef, Player


def chat_ref(chat: Chat) -> ChatRef:
    return ChatRef(id=chat.id, kind=ChatKind(chat.type), title=chat.title)


def player(user: User) -> Player:
    return Player(
        id=user.id, first_name=user.first_name, last_name=user.last_name, username=user.username
    )


def thread_of(message: Message) -> int | None:
    return message.message_thread_id if message.is_topic_message else None


async def reply(message: Message, text: str, *, to: int | None = None) -> None:
    """Answer a command in its chat and forum topic, quoting it (or message `to`)."""
    await message.reply_text(
        text,
        message_thread_id=thread_of(message),
        reply_parameters=ReplyParameters(
            to if to is not None else message.message_id, allow_sending_without_reply=True
        ),
    )
