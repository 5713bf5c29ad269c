"""A Telegram Bot API server that runs inside the process: the playground's Telegram, and the
test suite's. It implements the methods quizbot calls with Telegram's limits and errors (texts
parsed as strictly as Telegram parses them, flood control, injectable faults), keeps the chats
and messages (photos too, which can be downloaded again), and lets scripted users (`FakeUser`,
in a `FakeChat`) write and press buttons. It knows nothing of quizbot."""

from .bot_api import BotApiServer
from .faults import (
    NGINX_BAD_GATEWAY,
    Drop,
    Fault,
    Injection,
    RawResponse,
    ResponseLost,
    Timeout,
    bad_gateway,
    bot_blocked,
    bot_kicked,
    chat_migrated,
    internal_server_error,
    params_match,
    too_many_requests,
)
from .files import StoredFile
from .html import HtmlParseError, ParsedText, parse_html, utf16_len
from .methods import NOT_MODIFIED, QUERY_TOO_OLD
from .models import (
    ApiCall,
    ApiError,
    CallbackAnswer,
    FakeChat,
    FakeUser,
    FaultKind,
    JsonDict,
    MemberStatus,
    StoredMessage,
)
from .photos import MAX_PHOTO_BYTES
from .ratelimit import RateLimits

__all__ = [
    "MAX_PHOTO_BYTES",
    "NGINX_BAD_GATEWAY",
    "NOT_MODIFIED",
    "QUERY_TOO_OLD",
    "ApiCall",
    "ApiError",
    "BotApiServer",
    "CallbackAnswer",
    "Drop",
    "FakeChat",
    "FakeUser",
    "Fault",
    "FaultKind",
    "HtmlParseError",
    "Injection",
    "JsonDict",
    "MemberStatus",
    "ParsedText",
    "RateLimits",
    "RawResponse",
    "ResponseLost",
    "StoredFile",
    "StoredMessage",
    "Timeout",
    "bad_gateway",
    "bot_blocked",
    "bot_kicked",
    "chat_migrated",
    "internal_server_error",
    "params_match",
    "parse_html",
    "too_many_requests",
    "utf16_len",
]
