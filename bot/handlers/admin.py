"""Who may change a chat's settings: its admins (checked with the Bot API), or the user alone."""

from __future__ import annotations

from telegram import Bot, Chat, ChatMember, Message
from telegram.constants import ChatType
from telegram.error import BadRequest, Forbidden
from telegram.ext import ContextTypes

ADMIN_STATUSES = {ChatMember.ADMINISTRATOR, ChatMember.OWNER}
ADMINS_ONLY = "Only this chat's admins can change its settings."


async def may_change_settings(message: Message, context: ContextTypes.DEFAULT_TYPE) -> bool:
    if message.chat.type == ChatType.PRIVATE:
        return True
    # Anonymous admins post as the group itself.
    if message.sender_chat is not None and message.sender_chat.id == message.chat_id:
        return True
    if message.from_user is None:
        return False
    member = await context.bot.get_chat_member(message.chat_id, message.from_user.id)
    return member.status in ADMIN_STATUSES


async def is_chat_admin(bot: Bot, chat: Chat, user_id: int) -> bool:
    """Whether the user may act for the chat (e.g. on its buttons): an admin of a group, the
    user of a private chat. A chat the bot cannot ask about has no admins it can confirm."""
    if chat.type == ChatType.PRIVATE:
        return chat.id == user_id
    try:
        member = await bot.get_chat_member(chat.id, user_id)
    except (BadRequest, Forbidden):
        return False
    return member.status in ADMIN_STATUSES
