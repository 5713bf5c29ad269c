"""Small conversions from Telegram objects to domain types."""

from __future__ import annotations

from telegram import Chat, User

from bot.core.domain import ChatKind, ChatRef, Player


def chat_ref(chat: Chat) -> ChatRef:
    return ChatRef(id=chat.id, kind=ChatKind(chat.type), title=chat.title)


def player(user: User) -> Player:
    return Player(
        id=user.id, first_name=user.first_name, last_name=user.last_name, username=user.username
    )
