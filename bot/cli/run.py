"""`python -m bot` (and `run`): the settings checked, secrets kept out of the logs, the bot
served until SIGINT or SIGTERM."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

from pydantic import ValidationError
from telegram.error import InvalidToken, NetworkError

from bot.config import TOKEN_HELP, Settings, describe_settings_error
from content.loader import DeckError


class RedactSecret(logging.Filter):
    """Keeps the token out of every log line, whichever library writes it."""

    def __init__(self, secret: str) -> None:
        super().__init__()
        self.secret = secret

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if self.secret in message:
            record.msg, record.args = message.replace(self.secret, "<token>"), None
        return True


def _configure_logging(level: str, token: str) -> None:
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for handler in logging.getLogger().handlers:
        handler.addFilter(RedactSecret(token))
    # httpx logs every request URL at INFO, and Bot API URLs contain the token.
    logging.getLogger("httpx").setLevel(logging.WARNING)


async def _serve(settings: Settings) -> None:
    from bot.app import run_until

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    await run_until(settings, stop)


def token_given() -> bool:
    """Whether TELEGRAM_BOT_TOKEN (or webhook mode, which needs one) is configured: without
    either, `python -m bot` opens the playground; unreadable settings go to `run`, which
    says what is wrong with them."""
    try:
        settings = Settings()
    except ValidationError:
        return True
    return settings.telegram_bot_token is not None or settings.webhook_url is not None


def run() -> int:
    try:
        settings = Settings()
    except ValidationError as error:
        print(f"quizbot: invalid configuration:\n{describe_settings_error(error)}", file=sys.stderr)
        return 2
    if settings.telegram_bot_token is None:
        print(f"quizbot: {TOKEN_HELP}", file=sys.stderr)
        return 2
    _configure_logging(settings.log_level, settings.telegram_bot_token.get_secret_value())
    from bot.app import DatabaseInUseError, PostgresDriverMissingError, SchemaTooNewError

    try:
        asyncio.run(_serve(settings))
    except DeckError as error:
        print(f"quizbot: the decks have problems:\n{error}", file=sys.stderr)
        return 2
    except (SchemaTooNewError, DatabaseInUseError, PostgresDriverMissingError) as error:
        print(f"quizbot: {error}", file=sys.stderr)
        return 2
    except InvalidToken:
        print(
            "quizbot: Telegram rejected TELEGRAM_BOT_TOKEN; check it with @BotFather.",
            file=sys.stderr,
        )
        return 2
    except NetworkError as error:
        print(f"quizbot: cannot reach the Bot API: {error}", file=sys.stderr)
        return 1
    return 0
