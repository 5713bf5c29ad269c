"""Test doubles: a fake Telegram Bot API server (see :mod:`tests.fakes.bot_api`)."""

from .bot_api import FakeBotApi
from .methods import NOT_MODIFIED, QUERY_TOO_OLD
from .models import (
    ApiCall,
    ApiError,
    CallbackAnswer,
    FakeChat,
    FakeUser,
    JsonDict,
    MemberStatus,
    StoredMessage,
)
from .ratelimit import RateLimits

__all__ = [
    "NOT_MODIFIED",
    "QUERY_TOO_OLD",
    "ApiCall",
    "ApiError",
    "CallbackAnswer",
    "FakeBotApi",
    "FakeChat",
    "FakeUser",
    "JsonDict",
    "MemberStatus",
    "RateLimits",
    "StoredMessage",
]
